/** Event sequence numbers with gaps between them. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'leaves gaps in the sequence numbers of delivered events',
  permittedBy: 'the sequence number of an observed event is the seam\'s, not PMIx\'s: it only orders events (seam/messages.ts EventView.seq); no document numbers events.',
};

export const createImplementation = engineWith({ eventSeqStride: 10 }, 'event-sequence-gaps');
