import { SuspendSignal } from 'fino:ai/tool';

throw new SuspendSignal('needs approval', { action: 'delete', target: 'prod-db' });
