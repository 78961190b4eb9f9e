// An OpenCode plugin: a desktop notification when a session goes idle.
// OpenCode imports this module; satchel detects it and never runs, imports or opens it.
export const NotifyPlugin = async ({ $ }) => ({
  event: async ({ event }) => {
    if (event.type === "session.idle") {
      await $`notify-send "opencode" "The session is idle"`;
    }
  },
});
