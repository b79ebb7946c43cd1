import { OVERLAY_COMPLETION_DELAY_MS, OVERLAY_STAGE_MS, OVERLAY_STAGES } from '@lsp/contracts';

export type OverlayStep = { at: number; stage: number } | { at: number; complete: true };

/**
 * When the progress overlay moves on: stage 1 at once, one more stage every 2.2 s, and the completion
 * callback 0.8 s after the last stage.
 */
export function overlaySchedule(
  stages = OVERLAY_STAGES,
  stageMs = OVERLAY_STAGE_MS,
  completionMs = OVERLAY_COMPLETION_DELAY_MS,
): OverlayStep[] {
  const steps: OverlayStep[] = [];
  for (let stage = 2; stage <= stages; stage += 1) steps.push({ at: stageMs * (stage - 1), stage });
  steps.push({ at: stageMs * (stages - 1) + completionMs, complete: true });
  return steps;
}

export function overlayPercent(stage: number, stages = OVERLAY_STAGES): number {
  return Math.round((stage / stages) * 100);
}
