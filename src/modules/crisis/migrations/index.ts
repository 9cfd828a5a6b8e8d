// The crisis module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { crisis } from './0006_crisis.ts';
import { detectorLease } from './0020.3_detector_lease.ts';
import { hazardTimeIndex } from './0021.2_hazard_time_index.ts';
import { foldKeys } from './0023.5_fold_keys.ts';

export const crisisMigrations: MigrationSet = {
  owner: 'crisis',
  migrations: {
    '0006_crisis': crisis,
    '0020.3_detector_lease': detectorLease,
    '0021.2_hazard_time_index': hazardTimeIndex,
    '0023.5_fold_keys': foldKeys,
  },
};
