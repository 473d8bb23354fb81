/** Every registered export format passes the exporter conformance suite (verifier/export/conformance.ts); a new format is tested without editing this file. */
import { EXPORTERS } from '../../../verifier/export/registry.js';
import { exporterSuite } from '../../../verifier/export/conformance.js';
import { describeConformance } from '../../helpers/conformance.js';

for (const exporter of EXPORTERS) describeConformance(exporterSuite(exporter));
