/** Where a dub's files live in storage: all under one folder per dub, removed with it. */
export const dubFolder = (workspaceId: string, dubId: string) => `dubbing/${workspaceId}/${dubId}/`;
/** Every dub file of a workspace (removed with the workspace). */
export const workspaceDubFolder = (workspaceId: string) => `dubbing/${workspaceId}/`;
