// The signals module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { signals } from './0002_signals.ts';
import { sourceState } from './0004.3_source_state.ts';
import { signalCategory } from './0011_signal_category.ts';
import { sourceLeases } from './0020.2_source_leases.ts';
import { pendingSignalsIndex } from './0025_pending_signals_index.ts';
import { signalQueue } from './0029_signal_queue.ts';

export const signalsMigrations: MigrationSet = {
  owner: 'signals',
  migrations: {
    '0002_signals': signals,
    '0004.3_source_state': sourceState,
    '0011_signal_category': signalCategory,
    '0020.2_source_leases': sourceLeases,
    '0025_pending_signals_index': pendingSignalsIndex,
    '0029_signal_queue': signalQueue,
  },
};
