/** The App Workflow screen: how a submitted document travels through this installation. */
export { BackendWorkflowPage } from './components/backend-workflow-page';

/** This installation's upload rules in words, as the User Guide says them too. */
export { acceptedExtensionsText, acceptedTypesText, fileSizeText, retentionText } from './workflow-text';
