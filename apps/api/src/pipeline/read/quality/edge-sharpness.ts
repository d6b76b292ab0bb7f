/**
 * Sharpness that sensor noise cannot fake (the variance of the Laplacian less its noise's bell):
 * one measure for the server and the widget's live guidance, kept in the contract
 * (`@service/contract` `edgeVariance`) so a photo the widget calls sharp is one the pipeline does.
 */
export { edgeVariance } from '@service/contract';
