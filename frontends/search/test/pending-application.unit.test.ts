import { readPendingApplication, storePendingApplication } from '../src/application/pending-application';
import { createMemoryStorage } from '../src/shared/storage-keys';

describe('pending application', () => {
  it('stores the chosen offer under pendingApplication, selectedLoan and searchFormData', () => {
    const storage = createMemoryStorage();
    const offer = { LenderName: 'Castlegate Finance', GrossLoan: 450000 };
    storePendingApplication(
      storage,
      { formData: { projectName: 'Quay' }, selectedLoan: offer, loanType: 'bridging' },
      1234,
    );
    expect(JSON.parse(storage.getItem('pendingApplication') as string)).toEqual({
      formData: { projectName: 'Quay' },
      selectedLoan: offer,
      loanType: 'bridging',
      timestamp: 1234,
    });
    expect(JSON.parse(storage.getItem('selectedLoan') as string)).toEqual(offer);
    expect(JSON.parse(storage.getItem('searchFormData') as string)).toEqual({
      projectName: 'Quay',
      loanType: 'bridging',
    });
    expect(readPendingApplication(storage)).toMatchObject({ loanType: 'bridging', selectedLoan: offer });
  });

  it('reads a damaged or foreign entry as no application', () => {
    expect(readPendingApplication(createMemoryStorage({ pendingApplication: '{oops' }))).toBeNull();
    expect(
      readPendingApplication(
        createMemoryStorage({ pendingApplication: '{"selectedLoan":{},"loanType":"mortgage"}' }),
      ),
    ).toBeNull();
    expect(readPendingApplication(createMemoryStorage())).toBeNull();
  });

  it('keeps the saved search the offer came from, when there is one', () => {
    const storage = createMemoryStorage();
    storePendingApplication(
      storage,
      { formData: {}, selectedLoan: { GrossLoan: 1 }, loanType: 'development', searchId: 'search-7' },
      1,
    );
    expect(readPendingApplication(storage)).toMatchObject({ searchId: 'search-7' });
    storePendingApplication(
      storage,
      { formData: {}, selectedLoan: { GrossLoan: 1 }, loanType: 'development' },
      2,
    );
    expect(JSON.parse(storage.getItem('pendingApplication') as string)).not.toHaveProperty('searchId');
    expect(readPendingApplication(storage)).not.toHaveProperty('searchId');
  });
});
