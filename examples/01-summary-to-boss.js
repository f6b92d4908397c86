// Summarise the newest email and send the summary to the boss.
// The recipient is the user's own words, so the email cannot change where the summary goes.
// expect: completed
const email = get_last_email();
const { summary } = query_ai_assistant(
  "Summarise this email in one sentence:\n" + email.body,
  { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
);
send_email({ to: "boss@corp.com", subject: "Summary of your newest email", body: summary });
summary;
