// Sharing's projection of DIPs applies the dip.* events of the dip domain's last release: each released
// example payload (packages/contracts/released/dip.json) goes through the consumer as the bus delivers
// it. The examples share one DIP id; each is delivered with the version after the one before, so each
// applies (its payload otherwise exactly as released).
import { DIP_EVENT_TYPES } from '@lsp/contracts';
import { useHarness } from '@lsp/testing';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import { dipEvent, startSharingHarness } from './sharing-harness';

jest.setTimeout(60_000);

/** created first, then each change of the DIP, the revocation last (it ends the link). */
const ORDER = [
  DIP_EVENT_TYPES.created,
  DIP_EVENT_TYPES.linkRegenerated,
  DIP_EVENT_TYPES.expiryChanged,
  DIP_EVENT_TYPES.revoked,
] as const;

describe('sharing applies the dip events of the last release', () => {
  const h = useHarness(startSharingHarness);

  it.each(['full', 'minimal'] as const)(
    'applies each released dip.* example (%s shape) in turn',
    async (shape) => {
      const examples = (await releasedExamplesConsumedBy('sharing')).filter(
        (e) => e.shape === shape && e.type.startsWith('dip.'),
      );
      expect(examples.map((e) => e.type).sort()).toEqual([...ORDER].sort());
      const dipIds = new Set<string>();
      let version = 0;
      for (const type of ORDER) {
        const example = examples.find((e) => e.type === type)!;
        const payload = { ...(example.payload as { dipId: string } & Record<string, unknown>) };
        version += 1;
        payload.version = version;
        // The shapes share one DIP id in the release: each shape gets its own DIP here.
        payload.dipId = shape === 'full' ? payload.dipId : payload.dipId.replace(/^.{8}/, '00000000');
        dipIds.add(payload.dipId);
        expect([type, await h.deliver(dipEvent(type, payload))]).toEqual([type, true]);
      }
      const [dipId] = [...dipIds];
      const projection = await h.collections.dips.findOne({ _id: dipId! });
      expect(projection).toMatchObject({ version: ORDER.length, status: 'revoked', shareSlug: null });
    },
  );
});
