// The types of ports.mjs, for the TypeScript that imports it (packages/testing/src/ports.ts).

export interface PortRange {
  low: number;
  high: number;
}

export const ASSUMED_EPHEMERAL_RANGE: PortRange;
export function parseEphemeralRange(text: string | undefined): PortRange | null;
export function ephemeralPortRange(): PortRange;
export function isChoosablePort(port: number, range?: PortRange): boolean;
export function stackPort(defaultPort: number, offset: number): number;
export function singlePortRange(range?: PortRange): PortRange;
export function portIsFree(port: number): Promise<boolean>;
export function freePort(range?: PortRange): Promise<number>;
export function socketsOnPort(procNetTcp: string, port: number): Array<{ inode: string; state: string }>;
export function describePortHolder(port: number): string | null;
