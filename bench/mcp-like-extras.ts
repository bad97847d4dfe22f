import type { McpLikeParameter } from "./mcp-like-catalog.js";

type Extra = readonly [
  server: string,
  name: string,
  description: string,
  parameters: readonly McpLikeParameter[],
];

const REPO: readonly McpLikeParameter[] = [
  ["owner", "string", "Account or organisation that owns the repository."],
  ["repo", "string", "Repository name."],
];
const PATH: McpLikeParameter = ["path", "string", "Absolute path inside an allowed directory."];
const SQL: McpLikeParameter = ["sql", "string", "The SQL statement."];
const TAB: McpLikeParameter = ["?tab_index", "integer", "Tab to act on; the current tab when omitted."];
const ELEMENT: readonly McpLikeParameter[] = [
  ["element", "string", "Human-readable description of the element, for the log."],
  ["ref", "string", "Element reference from the last page snapshot."],
];
const SENTRY: readonly McpLikeParameter[] = [
  ["organization", "string", "Organisation slug."],
  ["?project", "string", "Project slug."],
];

/** Tools that do not follow the list/get/create pattern, written by hand per server. */
export const MCP_LIKE_EXTRA_TOOLS: readonly Extra[] = [
  // github
  [
    "github",
    "get_file_contents",
    "Get the contents of a file or directory from a GitHub repository at a branch, tag or commit.",
    [...REPO, ["path", "string", "Path in the repository."], ["?ref", "string", "Branch, tag or SHA."]],
  ],
  [
    "github",
    "create_or_update_file",
    "Create or update a single file in a GitHub repository with a commit.",
    [
      ...REPO,
      ["path", "string", "Path in the repository."],
      ["content", "string", "New file content."],
      ["message", "string", "Commit message."],
      ["branch", "string", "Branch to commit to."],
      ["?sha", "string", "Blob SHA of the file being replaced."],
    ],
  ],
  [
    "github",
    "push_files",
    "Push several files to a branch in one commit.",
    [
      ...REPO,
      ["branch", "string", "Branch to push to."],
      ["files", "array", "Files as {path, content}."],
      ["message", "string", "Commit message."],
    ],
  ],
  [
    "github",
    "search_code",
    "Search source code across GitHub repositories with GitHub code search syntax (language:, path:, repo:).",
    [
      ["query", "string", "Code search query."],
      ["?page_size", "integer", "Results per page."],
    ],
  ],
  [
    "github",
    "add_issue_comment",
    "Add a comment to an issue or pull request.",
    [
      ...REPO,
      ["issue_number", "integer", "Issue or pull request number."],
      ["body", "string", "Comment text."],
    ],
  ],
  [
    "github",
    "list_issue_comments",
    "List the comments on an issue or pull request, oldest first.",
    [...REPO, ["issue_number", "integer", "Issue or pull request number."]],
  ],
  [
    "github",
    "merge_pull_request",
    "Merge a pull request with a merge commit, squash or rebase.",
    [
      ...REPO,
      ["pull_number", "integer", "Pull request number."],
      ["?merge_method", "string", "merge, squash or rebase."],
      ["?commit_title", "string", "Title of the merge commit."],
    ],
  ],
  [
    "github",
    "get_pull_request_diff",
    "Get the unified diff of a pull request.",
    [...REPO, ["pull_number", "integer", "Pull request number."]],
  ],
  [
    "github",
    "get_pull_request_files",
    "List the files changed by a pull request with additions and deletions per file.",
    [...REPO, ["pull_number", "integer", "Pull request number."]],
  ],
  [
    "github",
    "create_pull_request_review",
    "Submit a review on a pull request: approve, request changes or comment, optionally with line comments.",
    [
      ...REPO,
      ["pull_number", "integer", "Pull request number."],
      ["event", "string", "APPROVE, REQUEST_CHANGES or COMMENT."],
      ["?body", "string", "Review summary."],
      ["?comments", "array", "Line comments as {path, line, body}."],
    ],
  ],
  [
    "github",
    "request_reviewers",
    "Request reviews on a pull request from users or teams.",
    [...REPO, ["pull_number", "integer", "Pull request number."], ["reviewers", "array", "Logins to ask."]],
  ],
  [
    "github",
    "fork_repository",
    "Fork a repository into your account or an organisation.",
    [...REPO, ["?organization", "string", "Organisation to fork into."]],
  ],
  [
    "github",
    "rerun_workflow",
    "Re-run a GitHub Actions workflow run, or only its failed jobs.",
    [
      ...REPO,
      ["run_id", "integer", "Workflow run id."],
      ["?failed_only", "boolean", "Re-run failed jobs only."],
    ],
  ],
  [
    "github",
    "get_job_logs",
    "Download the logs of a GitHub Actions job, or of every failed job of a run.",
    [...REPO, ["?job_id", "integer", "Job id."], ["?run_id", "integer", "Run id, with failed_only."]],
  ],
  [
    "github",
    "list_notifications",
    "List your GitHub notifications: mentions, review requests, assigned issues.",
    [
      ["?unread_only", "boolean", "Only unread."],
      ["?since", "string", "ISO 8601 date."],
    ],
  ],
  ["github", "get_me", "Get the profile of the authenticated GitHub user.", []],
  // slack
  [
    "slack",
    "slack_post_message",
    "Post a new message to a Slack channel.",
    [
      ["channel_id", "string", "Channel id or #name."],
      ["text", "string", "Message text (Slack mrkdwn)."],
    ],
  ],
  [
    "slack",
    "slack_reply_to_thread",
    "Reply in the thread of a Slack message.",
    [
      ["channel_id", "string", "Channel id or #name."],
      ["thread_ts", "string", "Timestamp of the parent message."],
      ["text", "string", "Reply text."],
    ],
  ],
  [
    "slack",
    "slack_add_reaction",
    "Add an emoji reaction to a message.",
    [
      ["channel_id", "string", "Channel id."],
      ["ts", "string", "Message timestamp."],
      ["name", "string", "Emoji name without colons."],
    ],
  ],
  [
    "slack",
    "slack_get_channel_history",
    "Get the most recent messages posted in a channel.",
    [
      ["channel_id", "string", "Channel id or #name."],
      ["?limit", "integer", "How many messages (default 20)."],
    ],
  ],
  [
    "slack",
    "slack_get_thread_replies",
    "Get every reply in a message thread.",
    [
      ["channel_id", "string", "Channel id."],
      ["thread_ts", "string", "Timestamp of the parent message."],
    ],
  ],
  [
    "slack",
    "slack_send_direct_message",
    "Send a direct message to one person in the workspace.",
    [
      ["user_id", "string", "Slack user id."],
      ["text", "string", "Message text."],
    ],
  ],
  [
    "slack",
    "slack_invite_to_channel",
    "Invite people to a channel.",
    [
      ["channel_id", "string", "Channel id."],
      ["user_ids", "array", "Slack user ids."],
    ],
  ],
  [
    "slack",
    "slack_set_channel_topic",
    "Set the topic shown at the top of a channel.",
    [
      ["channel_id", "string", "Channel id."],
      ["topic", "string", "New topic."],
    ],
  ],
  [
    "slack",
    "slack_archive_channel",
    "Archive a channel so that no new messages can be posted.",
    [["channel_id", "string", "Channel id."]],
  ],
  [
    "slack",
    "slack_upload_file",
    "Upload a file or snippet to one or more channels.",
    [
      ["channels", "array", "Channel ids."],
      ["?content", "string", "File content as text."],
      ["?path", "string", "Local path of the file."],
      ["?title", "string", "Title shown in Slack."],
    ],
  ],
  [
    "slack",
    "slack_pin_message",
    "Pin a message to the channel so everyone can find it.",
    [
      ["channel_id", "string", "Channel id."],
      ["ts", "string", "Message timestamp."],
    ],
  ],
  [
    "slack",
    "slack_set_status",
    "Set your Slack status text, emoji and expiry.",
    [
      ["text", "string", "Status text."],
      ["?emoji", "string", "Status emoji."],
      ["?expires", "string", "When it clears."],
    ],
  ],
  [
    "slack",
    "slack_schedule_message",
    "Schedule a message to be posted in a channel at a later time.",
    [
      ["channel_id", "string", "Channel id."],
      ["text", "string", "Message text."],
      ["post_at", "string", "When to post (Unix time or ISO 8601)."],
    ],
  ],
  // filesystem
  ["filesystem", "read_file", "Read the complete contents of a text file.", [PATH]],
  [
    "filesystem",
    "read_multiple_files",
    "Read several files at once; a file that cannot be read is reported without failing the rest.",
    [["paths", "array", "Paths to read."]],
  ],
  [
    "filesystem",
    "write_file",
    "Create a new file or overwrite an existing one with the given content.",
    [PATH, ["content", "string", "Text to write."]],
  ],
  [
    "filesystem",
    "edit_file",
    "Make line-based edits to a text file: each edit replaces an exact text with a new one. Returns a diff.",
    [PATH, ["edits", "array", "Edits as {oldText, newText}."], ["?dry_run", "boolean", "Preview only."]],
  ],
  ["filesystem", "create_directory", "Create a directory, with any missing parents.", [PATH]],
  [
    "filesystem",
    "list_directory",
    "List the files and subdirectories in a directory, marked [FILE] or [DIR].",
    [PATH],
  ],
  [
    "filesystem",
    "directory_tree",
    "Get a recursive tree of a directory as JSON, with names, types and children.",
    [PATH],
  ],
  [
    "filesystem",
    "move_file",
    "Move or rename a file or directory.",
    [
      ["source", "string", "Current path."],
      ["destination", "string", "New path."],
    ],
  ],
  [
    "filesystem",
    "search_files",
    "Recursively search a directory for files and folders whose names match a glob pattern.",
    [PATH, ["pattern", "string", "Glob such as **/*.ts."], ["?exclude", "array", "Patterns to skip."]],
  ],
  [
    "filesystem",
    "grep_files",
    "Search inside files for lines matching a regular expression; returns file, line number and text.",
    [PATH, ["pattern", "string", "Regular expression."], ["?include", "string", "Glob of files to look in."]],
  ],
  [
    "filesystem",
    "get_file_info",
    "Get metadata of a file or directory: size, creation and modification times, permissions.",
    [PATH],
  ],
  ["filesystem", "delete_file", "Delete a file. Directories are refused.", [PATH]],
  [
    "filesystem",
    "copy_file",
    "Copy a file to a new location.",
    [
      ["source", "string", "File to copy."],
      ["destination", "string", "Where to put the copy."],
    ],
  ],
  ["filesystem", "list_allowed_directories", "List the directories this server is allowed to access.", []],
  [
    "filesystem",
    "zip_directory",
    "Compress a directory into a zip archive.",
    [PATH, ["output", "string", "Path of the archive to write."]],
  ],
  // jira
  [
    "jira",
    "jira_transition_issue",
    "Move a Jira issue to another status, such as In Progress or Done, through a workflow transition.",
    [
      ["issue_key", "string", "Issue key."],
      ["transition", "string", "Transition name or id."],
    ],
  ],
  [
    "jira",
    "jira_assign_issue",
    "Assign a Jira issue to a user, or unassign it.",
    [
      ["issue_key", "string", "Issue key."],
      ["?account_id", "string", "Assignee; none to unassign."],
    ],
  ],
  [
    "jira",
    "jira_link_issues",
    "Link two Jira issues (blocks, relates to, duplicates).",
    [
      ["inward_issue", "string", "First issue key."],
      ["outward_issue", "string", "Second issue key."],
      ["link_type", "string", "Blocks, Relates or Duplicate."],
    ],
  ],
  [
    "jira",
    "jira_add_worklog",
    "Log time spent on a Jira issue.",
    [
      ["issue_key", "string", "Issue key."],
      ["time_spent", "string", "Such as 2h 30m."],
      ["?comment", "string", "Note."],
    ],
  ],
  [
    "jira",
    "jira_get_transitions",
    "List the workflow transitions available for an issue in its current status.",
    [["issue_key", "string", "Issue key."]],
  ],
  [
    "jira",
    "jira_move_issues_to_sprint",
    "Move one or more issues into a sprint.",
    [
      ["sprint_id", "integer", "Sprint id."],
      ["issue_keys", "array", "Issue keys."],
    ],
  ],
  [
    "jira",
    "jira_list_versions",
    "List the fix versions of a project with release dates and whether they are released.",
    [["project_key", "string", "Project key."]],
  ],
  [
    "jira",
    "jira_add_attachment",
    "Attach a file to a Jira issue.",
    [
      ["issue_key", "string", "Issue key."],
      ["path", "string", "Local file to attach."],
    ],
  ],
  [
    "jira",
    "jira_get_user",
    "Look up a Jira user by email or name to get the account id.",
    [["query", "string", "Email or display name."]],
  ],
  // calendar
  [
    "calendar",
    "find_free_time",
    "Find time slots when every given person is free, within working hours.",
    [
      ["attendees", "array", "Email addresses."],
      ["time_min", "string", "Start of the window."],
      ["time_max", "string", "End of the window."],
      ["?duration_minutes", "integer", "Length of the slot needed."],
    ],
  ],
  [
    "calendar",
    "get_free_busy",
    "Get busy intervals of calendars or people over a time range.",
    [
      ["items", "array", "Calendar ids or emails."],
      ["time_min", "string", "Start."],
      ["time_max", "string", "End."],
    ],
  ],
  [
    "calendar",
    "respond_to_event",
    "Accept, decline or tentatively accept an event invitation.",
    [
      ["event_id", "string", "Event id."],
      ["response", "string", "accepted, declined or tentative."],
    ],
  ],
  [
    "calendar",
    "quick_add_event",
    "Create an event from a line of text such as 'Lunch with Sam tomorrow at noon'.",
    [
      ["text", "string", "The event in plain words."],
      ["?calendar_id", "string", "Calendar."],
    ],
  ],
  [
    "calendar",
    "add_attendees",
    "Invite more people to an existing event and send them invitations.",
    [
      ["event_id", "string", "Event id."],
      ["attendees", "array", "Email addresses."],
    ],
  ],
  [
    "calendar",
    "move_event",
    "Move an event to another calendar.",
    [
      ["event_id", "string", "Event id."],
      ["destination_calendar_id", "string", "Target calendar."],
    ],
  ],
  [
    "calendar",
    "set_out_of_office",
    "Block time as out of office and decline new meetings during it.",
    [
      ["start", "string", "Start."],
      ["end", "string", "End."],
      ["?message", "string", "Decline message."],
    ],
  ],
  // postgres
  [
    "postgres",
    "query",
    "Run a read-only SQL query against the PostgreSQL database and return the rows.",
    [SQL, ["?database", "string", "Database name."], ["?max_rows", "integer", "Row cap (default 500)."]],
  ],
  [
    "postgres",
    "execute_sql",
    "Execute a SQL statement that changes data or schema (INSERT, UPDATE, DELETE, DDL) inside a transaction.",
    [SQL, ["?database", "string", "Database name."]],
  ],
  [
    "postgres",
    "describe_table",
    "Describe a table: columns, data types, defaults, constraints and foreign keys.",
    [
      ["table", "string", "Table name."],
      ["?schema", "string", "Schema name."],
    ],
  ],
  [
    "postgres",
    "explain_query",
    "Show the execution plan of a SQL query with estimated costs, optionally with ANALYZE timings.",
    [SQL, ["?analyze", "boolean", "Run it and report real timings."]],
  ],
  [
    "postgres",
    "list_slow_queries",
    "List the slowest statements from pg_stat_statements by mean or total time.",
    [
      ["?order_by", "string", "mean_time or total_time."],
      ["?limit", "integer", "How many."],
    ],
  ],
  [
    "postgres",
    "get_database_size",
    "Get the disk size of the database and of its largest tables.",
    [["?database", "string", "Database name."]],
  ],
  [
    "postgres",
    "list_active_connections",
    "List the current connections and running statements from pg_stat_activity.",
    [["?database", "string", "Database name."]],
  ],
  [
    "postgres",
    "export_query_to_csv",
    "Run a query and write the result rows to a CSV file.",
    [SQL, ["path", "string", "CSV file to write."]],
  ],
  // browser
  [
    "browser",
    "browser_navigate",
    "Navigate the browser to a URL.",
    [["url", "string", "Address to open."], TAB],
  ],
  ["browser", "browser_navigate_back", "Go back to the previous page in history.", [TAB]],
  [
    "browser",
    "browser_snapshot",
    "Capture an accessibility snapshot of the current page: the text and the elements you can act on.",
    [TAB],
  ],
  [
    "browser",
    "browser_take_screenshot",
    "Take a screenshot of the page or of one element, as a PNG image.",
    [TAB, ["?full_page", "boolean", "Whole scrollable page."], ["?ref", "string", "Element to capture."]],
  ],
  [
    "browser",
    "browser_click",
    "Click an element on the page.",
    [...ELEMENT, ["?double", "boolean", "Double-click."]],
  ],
  [
    "browser",
    "browser_type",
    "Type text into an editable element such as an input box.",
    [...ELEMENT, ["text", "string", "Text to type."], ["?submit", "boolean", "Press Enter after typing."]],
  ],
  [
    "browser",
    "browser_fill_form",
    "Fill several form fields in one step.",
    [["fields", "array", "Fields as {ref, value}."]],
  ],
  [
    "browser",
    "browser_select_option",
    "Choose an option in a dropdown.",
    [...ELEMENT, ["values", "array", "Values to select."]],
  ],
  ["browser", "browser_hover", "Move the mouse over an element.", ELEMENT],
  [
    "browser",
    "browser_press_key",
    "Press a keyboard key, such as ArrowDown or Escape.",
    [["key", "string", "Key name."]],
  ],
  [
    "browser",
    "browser_wait_for",
    "Wait until a text appears or disappears on the page, or for a number of seconds.",
    [
      ["?text", "string", "Text to wait for."],
      ["?time", "number", "Seconds to wait."],
    ],
  ],
  [
    "browser",
    "browser_evaluate",
    "Evaluate a JavaScript expression in the page and return its value.",
    [["function", "string", "JavaScript function source."]],
  ],
  ["browser", "browser_console_messages", "Return the console messages logged by the page.", []],
  [
    "browser",
    "browser_network_requests",
    "List the network requests the page has made since it loaded, with status codes.",
    [],
  ],
  [
    "browser",
    "browser_pdf_save",
    "Save the current page as a PDF file.",
    [["?filename", "string", "File name."]],
  ],
  [
    "browser",
    "browser_file_upload",
    "Upload files through the page's open file chooser.",
    [["paths", "array", "Absolute paths of the files."]],
  ],
  [
    "browser",
    "browser_resize",
    "Resize the browser window.",
    [
      ["width", "integer", "Width."],
      ["height", "integer", "Height."],
    ],
  ],
  ["browser", "browser_close", "Close the browser.", []],
  // gmail
  [
    "gmail",
    "send_email",
    "Send an email to one or more recipients, with optional cc, bcc and attachments.",
    [
      ["to", "array", "Recipient addresses."],
      ["subject", "string", "Subject line."],
      ["body", "string", "Plain-text or HTML body."],
      ["?cc", "array", "Copy recipients."],
      ["?attachments", "array", "Local file paths to attach."],
    ],
  ],
  [
    "gmail",
    "reply_to_email",
    "Reply to an email in its thread, to the sender or to everyone.",
    [
      ["message_id", "string", "Message to reply to."],
      ["body", "string", "Reply text."],
      ["?reply_all", "boolean", "Reply to all."],
    ],
  ],
  [
    "gmail",
    "forward_email",
    "Forward an email to other recipients with an optional note.",
    [
      ["message_id", "string", "Message id."],
      ["to", "array", "Recipients."],
      ["?note", "string", "Text above the forwarded message."],
    ],
  ],
  ["gmail", "send_draft", "Send a saved draft.", [["draft_id", "string", "Draft id."]]],
  [
    "gmail",
    "modify_email_labels",
    "Add or remove labels on an email, e.g. to archive it, star it or mark it read or unread.",
    [
      ["message_id", "string", "Message id."],
      ["?add", "array", "Labels to add."],
      ["?remove", "array", "Labels to remove."],
    ],
  ],
  [
    "gmail",
    "download_attachment",
    "Save an attachment of an email to a local file.",
    [
      ["message_id", "string", "Message id."],
      ["attachment_id", "string", "Attachment id."],
      ["path", "string", "Where to save it."],
    ],
  ],
  [
    "gmail",
    "get_email_thread",
    "Get a whole email conversation (thread) with every message in it.",
    [["thread_id", "string", "Thread id."]],
  ],
  [
    "gmail",
    "batch_modify_emails",
    "Apply label changes to many emails at once.",
    [
      ["message_ids", "array", "Message ids."],
      ["?add", "array", "Labels to add."],
      ["?remove", "array", "Labels to remove."],
    ],
  ],
  [
    "gmail",
    "set_vacation_responder",
    "Turn the automatic out-of-office reply on or off, with its subject and message.",
    [
      ["enabled", "boolean", "On or off."],
      ["?subject", "string", "Subject."],
      ["?message", "string", "Reply text."],
    ],
  ],
  // notion
  [
    "notion",
    "notion_query_database",
    "Query a Notion database with filters and sorts; returns the matching pages with their properties.",
    [
      ["database_id", "string", "Database id."],
      ["?filter", "object", "Notion filter."],
      ["?sorts", "array", "Sort rules."],
    ],
  ],
  [
    "notion",
    "notion_append_block_children",
    "Append content blocks (paragraphs, headings, to-dos, lists) to the end of a page.",
    [
      ["block_id", "string", "Page or block id."],
      ["children", "array", "Blocks to add."],
    ],
  ],
  [
    "notion",
    "notion_get_block_children",
    "Read the content blocks of a page or block.",
    [["block_id", "string", "Page or block id."]],
  ],
  [
    "notion",
    "notion_update_block",
    "Change the text or type of one content block.",
    [
      ["block_id", "string", "Block id."],
      ["content", "object", "New block content."],
    ],
  ],
  ["notion", "notion_delete_block", "Delete a content block.", [["block_id", "string", "Block id."]]],
  [
    "notion",
    "notion_list_users",
    "List the people and bots in the Notion workspace.",
    [["?page_size", "integer", "Results per page."]],
  ],
  [
    "notion",
    "notion_export_page_markdown",
    "Export a page and its sub-pages as Markdown.",
    [["page_id", "string", "Page id."]],
  ],
  // sentry
  [
    "sentry",
    "resolve_issue",
    "Mark a Sentry issue as resolved, optionally in the next release.",
    [
      ["issue_id", "string", "Sentry issue id."],
      ["?in_next_release", "boolean", "Resolve in the next release."],
    ],
  ],
  [
    "sentry",
    "get_issue_stack_trace",
    "Get the stack trace of the latest event of an issue, with source context around each frame.",
    [["issue_id", "string", "Sentry issue id."]],
  ],
  [
    "sentry",
    "list_releases",
    "List releases of a project with their deploys, new issues and crash-free rate.",
    SENTRY,
  ],
  [
    "sentry",
    "get_release_health",
    "Get crash-free sessions and users, adoption and error counts for a release.",
    [...SENTRY, ["version", "string", "Release version."]],
  ],
  [
    "sentry",
    "list_projects",
    "List the Sentry projects of an organisation with their platforms and teams.",
    [["organization", "string", "Organisation slug."]],
  ],
  [
    "sentry",
    "get_performance_summary",
    "Get transaction performance for a project: p50, p95 latency, throughput and failure rate per endpoint.",
    [...SENTRY, ["?period", "string", "Such as 24h or 7d."]],
  ],
  [
    "sentry",
    "create_issue_link",
    "Link a Sentry issue to a ticket in an issue tracker such as Jira or GitHub.",
    [
      ["issue_id", "string", "Sentry issue id."],
      ["external_url", "string", "Ticket URL."],
    ],
  ],
];
