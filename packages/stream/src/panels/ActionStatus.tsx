import { useStreamEnv } from '../StreamContext';
import type { ActionState } from './useAction';

/**
 * A form's outcome, next to it: the success text in a polite live region (present from the first
 * render, because screen readers announce changes to a region, not a region's arrival) and a
 * coded error as an alert.
 */
export function ActionStatus({ state, success }: { state: ActionState; success: string }) {
  const { t } = useStreamEnv();
  return (
    <>
      <p class="parley-action-status" role="status">
        {state.status === 'done' ? success : ''}
      </p>
      {state.status === 'failed' && (
        <p class="parley-action-error" role="alert">
          {t(`error.${state.code}`, state.vars)}
        </p>
      )}
    </>
  );
}
