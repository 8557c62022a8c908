import {
  cancelBatchCallRoute,
  createPhoneNumberRoute,
  deleteBatchCallRoute,
  deletePhoneNumberRoute,
  getBatchCallRoute,
  getPhoneNumberRoute,
  listBatchCallsRoute,
  listPhoneNumbersRoute,
  retryBatchCallRoute,
  SIP_TRUNK_UNSUPPORTED_MESSAGE,
  sipTrunkOutboundCallRoute,
  submitBatchCallRoute,
  twilioOutboundCallRoute,
  twilioRegisterCallRoute,
  updatePhoneNumberRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { socketRoute } from '../../platform/realtime/websocket';
import { registerRoute } from '../../platform/route';
import {
  cancelBatchCall,
  deleteBatchCall,
  getBatchCall,
  listBatchCalls,
  retryBatchCall,
  submitBatchCall,
} from './batch-calls';
import {
  createPhoneNumber,
  deletePhoneNumber,
  getPhoneNumber,
  listPhoneNumbers,
  MEDIA_STREAM_PATH,
  placeTwilioCall,
  registerTwilioCall,
  updatePhoneNumber,
} from './telephony.service';
import { openTwilioMediaStream } from './twilio-media-stream';

/** This request's own origin (the media stream's host when PUBLIC_URL is not set). */
const originOf = (request: FastifyRequest) =>
  `${request.protocol}://${request.headers.host ?? request.hostname}`;

export async function telephonyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const guarded = { onRequest: deps.auth.requireAuth };

  // Twilio connects here with no key: the call's one-time token in the stream's `start` is the permission.
  socketRoute(app, MEDIA_STREAM_PATH, (socket) => openTwilioMediaStream(deps, socket));

  registerRoute(
    app,
    listPhoneNumbersRoute,
    async ({ request, query }) => listPhoneNumbers(deps, callerOf(request), query),
    guarded,
  );
  registerRoute(
    app,
    createPhoneNumberRoute,
    async ({ request, body }) => createPhoneNumber(deps, callerOf(request), body),
    guarded,
  );
  registerRoute(
    app,
    getPhoneNumberRoute,
    async ({ request, params }) => getPhoneNumber(deps, callerOf(request), params.phone_number_id),
    guarded,
  );
  registerRoute(
    app,
    updatePhoneNumberRoute,
    async ({ request, params, body }) =>
      updatePhoneNumber(deps, callerOf(request), params.phone_number_id, body),
    guarded,
  );
  registerRoute(
    app,
    deletePhoneNumberRoute,
    async ({ request, params }) => {
      await deletePhoneNumber(deps, callerOf(request), params.phone_number_id);
      return {};
    },
    guarded,
  );
  registerRoute(
    app,
    twilioOutboundCallRoute,
    async ({ request, body }) => placeTwilioCall(deps, callerOf(request), body, originOf(request)),
    guarded,
  );
  registerRoute(
    app,
    twilioRegisterCallRoute,
    async ({ request, reply, body }) => {
      const twiml = await registerTwilioCall(deps, callerOf(request), body, originOf(request));
      reply.type('text/xml; charset=utf-8');
      return twiml;
    },
    guarded,
  );
  registerRoute(
    app,
    sipTrunkOutboundCallRoute,
    async () => {
      throw new AppError('bad_request', SIP_TRUNK_UNSUPPORTED_MESSAGE);
    },
    guarded,
  );

  registerRoute(
    app,
    submitBatchCallRoute,
    async ({ request, body }) => submitBatchCall(deps, callerOf(request), body, originOf(request)),
    guarded,
  );
  registerRoute(
    app,
    listBatchCallsRoute,
    async ({ request, query }) => listBatchCalls(deps, callerOf(request), query),
    guarded,
  );
  registerRoute(
    app,
    getBatchCallRoute,
    async ({ request, params }) => getBatchCall(deps, callerOf(request), params.batch_id),
    guarded,
  );
  registerRoute(
    app,
    cancelBatchCallRoute,
    async ({ request, params }) => cancelBatchCall(deps, callerOf(request), params.batch_id),
    guarded,
  );
  registerRoute(
    app,
    retryBatchCallRoute,
    async ({ request, params }) => retryBatchCall(deps, callerOf(request), params.batch_id),
    guarded,
  );
  registerRoute(
    app,
    deleteBatchCallRoute,
    async ({ request, params }) => {
      await deleteBatchCall(deps, callerOf(request), params.batch_id);
      return {};
    },
    guarded,
  );
}
