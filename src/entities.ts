import { ApiKeyEntity } from './identity/index.js';
import { ProjectEntity } from './projects/index.js';
import { AuditEntity, AuditIssueEntity } from './audits/index.js';

/** Every MikroORM entity, for the processes that open the ORM (API, workers, CLI). */
export const ENTITIES = [ApiKeyEntity, ProjectEntity, AuditEntity, AuditIssueEntity];
