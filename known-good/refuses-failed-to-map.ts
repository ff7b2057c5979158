/** Refuses what cannot be granted or mapped with PMIX_ERR_JOB_FAILED_TO_MAP, as PRRTE does for a spawn that does not fit. */
import { engineWith, type KnownGood } from './good';

/** openpmix include/pmix_common.h.in; PRRTE answers it for a spawn that cannot be mapped. */
const PMIX_ERR_JOB_FAILED_TO_MAP = -179;

export const knownGood: KnownGood = {
  freedom: 'refuses an ungrantable request and an unmappable spawn with PMIX_ERR_JOB_FAILED_TO_MAP instead of PMIX_ERR_OUT_OF_RESOURCE',
  permittedBy: 'node-reservation-spec.rst\'s error table names no status for a request the scheduler cannot satisfy or a job that does not fit its sessions; any error status refuses.',
};

export const createImplementation = engineWith({ refusalStatus: PMIX_ERR_JOB_FAILED_TO_MAP }, 'refuses-failed-to-map');
