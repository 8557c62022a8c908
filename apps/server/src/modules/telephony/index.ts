/**
 * The telephony module's front door (issue 28, phone numbers): nothing other modules call yet — phone
 * numbers and calls are reached through their own routes and Twilio's media stream.
 */
export {};
