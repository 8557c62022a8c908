/**
 * The notifications module's front door (issue 26 item 1). The bell's messages are written from domain
 * events (notifications.events.ts): a module tells a user something by publishing, never by calling here.
 * What a later module may do directly goes here.
 */
export {};
