/** The estimators live with the other statistics (src/stats/), where the reports can reach them too. */
export { passAtK, passHatK, wilsonInterval } from '../stats/estimators.js';
