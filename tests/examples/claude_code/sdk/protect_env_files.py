from satchel.hooks import HookMatcher


# Define a hook callback that receives tool call details
async def protect_env_files(input_data, tool_use_id, context):
    # Extract the file path from the tool's input arguments
    file_path = input_data["tool_input"].get("file_path", "")
    file_name = file_path.split("/")[-1]

    # Block the operation if targeting a .env file
    if file_name == ".env":
        return {
            "hookSpecificOutput": {
                "hookEventName": input_data["hook_event_name"],
                "permissionDecision": "deny",
                "permissionDecisionReason": "Cannot modify .env files",
            }
        }

    # Return empty object to allow the operation
    return {}


hooks = {
    # Register the hook for PreToolUse events
    # The matcher filters to only Write and Edit tool calls
    "PreToolUse": [HookMatcher(matcher="Write|Edit", hooks=[protect_env_files])]
}
