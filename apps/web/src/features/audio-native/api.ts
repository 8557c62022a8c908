import {
  createAudioNativeRoute,
  getAudioNativeAnalyticsRoute,
  getAudioNativeProjectRoute,
  listAudioNativeProjectsRoute,
  type UpdateAudioNativeSettingsBody,
  updateAudioNativeSettingsRoute,
} from '@parla/contracts';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

const keys = {
  all: ['audio-native'] as const,
  project: (id: string) => ['audio-native', 'project', id] as const,
  analytics: (id: string, days: number) => ['audio-native', 'analytics', id, days] as const,
};

export function useAudioNativeProjects() {
  return useQuery({ queryKey: keys.all, queryFn: () => apiRequest(listAudioNativeProjectsRoute) });
}

export function useAudioNativeProject(projectId: string) {
  return useQuery({
    queryKey: keys.project(projectId),
    queryFn: () => apiRequest(getAudioNativeProjectRoute, { params: { project_id: projectId } }),
  });
}

export function useAudioNativeAnalytics(projectId: string, days: number) {
  return useQuery({
    queryKey: keys.analytics(projectId, days),
    queryFn: () =>
      apiRequest(getAudioNativeAnalyticsRoute, { params: { project_id: projectId }, query: { days } }),
  });
}

/**
 * Every listed player's analytics for the period (the workspace's analytics page): one request per player,
 * cached under the same keys as each player's own page.
 */
export function useAudioNativeAnalyticsOf(projectIds: readonly string[], days: number) {
  return useQueries({
    queries: projectIds.map((projectId) => ({
      queryKey: keys.analytics(projectId, days),
      queryFn: () =>
        apiRequest(getAudioNativeAnalyticsRoute, { params: { project_id: projectId }, query: { days } }),
    })),
  });
}

/** What the create form sends: the article as text, a page to fetch (later), or a file. */
export type CreateAudioNativeInput = {
  name: string;
  title?: string;
  author?: string;
  voiceId?: string;
  content: { kind: 'text'; text: string } | { kind: 'file'; file: File };
};

/** The multipart form of `POST /v1/audio-native`: pasted text goes as a .txt file, as the API takes it. */
export function buildCreateForm(input: CreateAudioNativeInput): FormData {
  const form = new FormData();
  form.append('name', input.name);
  if (input.title) form.append('title', input.title);
  if (input.author) form.append('author', input.author);
  if (input.voiceId) form.append('voice_id', input.voiceId);
  const file =
    input.content.kind === 'file'
      ? input.content.file
      : new File([input.content.text], 'article.txt', { type: 'text/plain' });
  form.append('file', file, file.name);
  form.append('auto_convert', 'true');
  return form;
}

export function useCreateAudioNative() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAudioNativeInput) =>
      apiRequest(createAudioNativeRoute, { body: buildCreateForm(input) }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useUpdateAudioNativeSettings(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAudioNativeSettingsBody) =>
      apiRequest(updateAudioNativeSettingsRoute, { params: { project_id: projectId }, body }),
    onSuccess: (project) => {
      queryClient.setQueryData(keys.project(projectId), project);
      void queryClient.invalidateQueries({ queryKey: keys.all, exact: true });
    },
  });
}
