import { declaredRouteOf, mockProblem, requestProblem } from './api-mocks';
import { SAMPLE_OFFERS, searchAnswer } from './search-helpers';

const request = (method: string, path: string) => ({
  method: () => method,
  url: () => `http://localhost:8080${path}`,
});

describe('contract-checked browser-test mocks', () => {
  it('find the declared route of a concrete path, literal segments first', () => {
    expect(declaredRouteOf('GET', '/api/online-dip/shared/abc')?.operationId).toBe('openSharedDip');
    expect(declaredRouteOf('GET', '/api/online-dip/abc')?.operationId).toBe('getDip');
    expect(declaredRouteOf('POST', '/api/online-dip/abc/share')?.service).toBe('sharing');
    expect(declaredRouteOf('DELETE', '/api/auth/me')).toBeUndefined();
  });

  it('accept what the services answer and refuse what they never would', () => {
    expect(mockProblem(request('POST', '/api/bridging'), 200, searchAnswer(SAMPLE_OFFERS))).toBeNull();
    expect(mockProblem(request('GET', '/api/shared'), 200, { success: true, items: [] })).toBeNull();
    // A bare list where the service wraps it, a status it never gives, a route that does not exist.
    expect(mockProblem(request('GET', '/api/shared'), 200, [])).toMatch(/^listSharedWithMe 200: /);
    expect(mockProblem(request('GET', '/api/shared'), 418, {})).toMatch(/does not declare a 418/);
    expect(mockProblem(request('GET', '/api/nowhere'), 200, {})).toMatch(/not a declared route/);
    // An offer missing what every real offer has.
    const [first] = SAMPLE_OFFERS;
    const { LenderId: _dropped, ...incomplete } = first!;
    expect(mockProblem(request('POST', '/api/bridging'), 200, searchAnswer([incomplete]))).toMatch(
      /Results\.0\.LenderId/,
    );
  });

  it('refuse to answer success to a request body the route would refuse', () => {
    const sent = (method: string, path: string, body: unknown) => ({
      ...request(method, path),
      postData: () => (body === undefined ? null : JSON.stringify(body)),
    });
    const valid = { userId: 'u1', leadInfo: { fullName: 'Ada', propertiesOwned: '3-5' }, searchData: {} };
    expect(requestProblem(sent('POST', '/api/save-lead-info', valid))).toBeNull();
    expect(
      requestProblem(
        sent('POST', '/api/save-lead-info', { ...valid, leadInfo: { propertiesOwned: 'lots' } }),
      ),
    ).toMatch(/^saveLeadInfo request: leadInfo\.propertiesOwned/);
    // Routes that take no body are not checked.
    expect(requestProblem(sent('GET', '/api/shared', undefined))).toBeNull();
  });
});
