import type { CreateAgentInput } from './api/create-agent';

/** A starting point for a new agent (issue 28 item 7 "new agent from templates"). */
export interface AgentTemplate {
  id: 'blank' | 'support' | 'tutor' | 'receptionist';
  title: string;
  /** What the template is for, on its card. */
  summary: string;
  /** The new agent's name. */
  name: string;
  /** What the agent says when the call opens; empty: it waits for the caller. */
  firstMessage: string;
  /** The system prompt. */
  prompt: string;
}

export const AGENT_TEMPLATES: readonly AgentTemplate[] = [
  {
    id: 'blank',
    title: 'Blank',
    summary: 'Start from nothing: write the prompt and the greeting yourself.',
    name: 'New agent',
    firstMessage: '',
    prompt: '',
  },
  {
    id: 'support',
    title: 'Support agent',
    summary: 'Answers customers’ questions from your knowledge base and hands over what it cannot solve.',
    name: 'Support agent',
    firstMessage: 'Hi, thanks for calling. How can I help you today?',
    prompt: [
      'You are a friendly, patient customer support agent.',
      'Answer questions using the knowledge base; if it does not hold the answer, say so plainly and offer to pass the question on to a person.',
      'Keep each answer to one or two short sentences, since you are speaking, not writing.',
      'Never invent prices, dates or policies.',
    ].join('\n'),
  },
  {
    id: 'tutor',
    title: 'Tutor',
    summary: 'Explains a subject step by step and checks the learner understood.',
    name: 'Tutor',
    firstMessage: 'Hello! What would you like to learn about today?',
    prompt: [
      'You are an encouraging tutor.',
      'Explain one idea at a time in plain words, give a short example, then ask a question to check the learner understood before moving on.',
      'If the learner is stuck, give a hint rather than the answer.',
      'Keep your turns short: you are speaking.',
    ].join('\n'),
  },
  {
    id: 'receptionist',
    title: 'Receptionist',
    summary: 'Greets callers, answers opening hours and directions, and takes messages.',
    name: 'Receptionist',
    firstMessage: 'Good day, you’ve reached the front desk. How may I help?',
    prompt: [
      'You are the receptionist of a small business.',
      'Greet callers politely, answer questions about opening hours, location and services from the knowledge base, and take a message (name, phone number, reason for calling) when someone asks for a person.',
      'Repeat the message back to the caller to confirm it, then end the call politely.',
      'Keep every answer brief.',
    ].join('\n'),
  },
];

/** The create request of a template: name, greeting and prompt; everything else takes the server's defaults. */
export function templateCreateRequest(template: AgentTemplate): CreateAgentInput {
  return {
    name: template.name,
    conversation_config: {
      agent: { first_message: template.firstMessage, prompt: { prompt: template.prompt } },
    },
  };
}
