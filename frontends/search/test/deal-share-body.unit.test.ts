import { dealShareBodySchema } from '@lsp/contracts/src/sharing/http';
import { dealShareBody } from '../src/deal-share/deal-share-body';

const offer = {
  raw: {
    LenderId: 'castlegate',
    ProductId: 'castlegate-dev-1',
    LenderName: 'Castlegate Finance',
    GrossLoan: 450000,
  },
};

describe('the deal-share request', () => {
  it('names the search run and the offer by its lender and product, beside the spec’s fields', () => {
    const body = dealShareBody(
      { referralEmail: 'friend@example.co.uk' },
      { referrerId: 'user-1', offer, loanType: 'development', searchRunId: 'run-1', note: '  Worth a look ' },
    );
    expect(body).toEqual({
      referralEmail: 'friend@example.co.uk',
      referrerId: 'user-1',
      loanData: JSON.stringify(offer.raw),
      loanType: 'development',
      note: 'Worth a look',
      searchRunId: 'run-1',
      lenderId: 'castlegate',
      productId: 'castlegate-dev-1',
    });
    expect(dealShareBodySchema.safeParse(body).success).toBe(true);
  });

  it('leaves out ids an offer does not carry, and a blank note', () => {
    const body = dealShareBody(
      { channel: 'whatsapp' },
      {
        referrerId: 'user-1',
        offer: { raw: { LenderName: 'X' } },
        loanType: 'bridging',
        searchRunId: 'run-2',
        note: ' ',
      },
    );
    expect(body).not.toHaveProperty('lenderId');
    expect(body).not.toHaveProperty('productId');
    expect(body.note).toBeUndefined();
    expect(body).toMatchObject({ channel: 'whatsapp', searchRunId: 'run-2' });
  });
});
