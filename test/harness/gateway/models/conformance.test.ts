/** Every registered model API passes the model API conformance suite (harness/gateway/models/apis/conformance.ts); a new API is tested without editing this file. */
import { MODEL_APIS } from '../../../../harness/gateway/models/apis/registry.js';
import { modelApiSuite } from '../../../../harness/gateway/models/apis/conformance.js';
import { describeConformance } from '../../../helpers/conformance.js';

for (const api of MODEL_APIS) describeConformance(modelApiSuite(api));
