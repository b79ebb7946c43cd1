import { ObjectId } from 'mongodb';

/** The document both benchmarks insert and look up, so their figures describe the same workload. */
export function loanDocument(i: number) {
  return {
    _id: new ObjectId(),
    email: `user${i}@example.com`,
    name: `User ${i}`,
    loanAmount: 100_000 + i,
    ltv: (i % 80) / 100,
    createdAt: new Date(),
    tags: ['bridging', i % 2 ? 'commercial' : 'development'],
  };
}
