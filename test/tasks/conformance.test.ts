/** Every registered task family passes the family conformance suite (tasks/conformance.ts); a new family is tested without editing this file. */
import { FAMILIES } from '../../tasks/families.js';
import { familySuite } from '../../tasks/conformance.js';
import { describeConformance } from '../helpers/conformance.js';

for (const declaration of FAMILIES.entries) describeConformance(familySuite(declaration));
