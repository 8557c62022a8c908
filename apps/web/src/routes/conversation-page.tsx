import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { ConversationView, useConversation } from '../features/conversations';
import { isHttpError } from '../lib/http-error';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** `/app/conversational-ai/history/:conversationId`: one conversation (issue 28 items 5 and 7). */
export default function ConversationPage() {
  return (
    <RequireSignIn>
      <Conversation />
    </RequireSignIn>
  );
}

function Conversation() {
  const { conversationId = '' } = useParams();
  const conversation = useConversation(conversationId);
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      {conversation.isPending && (
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading the conversation"
          className="flex flex-col gap-4"
        >
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      )}
      {conversation.isError &&
        (isHttpError(conversation.error) && conversation.error.status === 404 ? (
          <div className="flex flex-col items-start gap-3">
            <h1 className="text-2xl font-semibold tracking-tight">Conversation not found</h1>
            <p className="text-sm text-fg-muted">It was deleted, or it belongs to another workspace.</p>
            <Link to="/app/conversational-ai/history" className="text-sm font-medium underline">
              Back to the call history
            </Link>
          </div>
        ) : (
          <LoadError error={conversation.error} onRetry={() => void conversation.refetch()} />
        ))}
      {conversation.isSuccess && <ConversationView conversation={conversation.data} />}
    </div>
  );
}
