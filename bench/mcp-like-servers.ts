import type { McpLikeParameter } from "./mcp-like-catalog.js";

/** A resource a server manages with the usual verbs. */
export type Resource = {
  /** Word(s) in tool names, singular and plural (`issue`, `issues`). */
  readonly one: string;
  readonly many: string;
  /** Natural phrases for descriptions. */
  readonly thing: string;
  readonly things: string;
  /** Where it lives ("in a repository"), or "". */
  readonly scope: string;
  readonly scopeParameters: readonly McpLikeParameter[];
  /** The identifier parameter of one item. */
  readonly key: McpLikeParameter;
  /** What a read returns, for descriptions. */
  readonly detail: string;
  /** Filters offered by list/search. */
  readonly filters: readonly McpLikeParameter[];
  /** Fields set on create / update. */
  readonly fields: readonly McpLikeParameter[];
  readonly verbs: readonly Verb[];
};

export type Verb = "list" | "get" | "search" | "create" | "update" | "delete";

export type Server = {
  readonly id: string;
  /** Prefix of every tool name on the server (`slack_`), or "". */
  readonly prefix: string;
  readonly resources: readonly Resource[];
};

/** Paging parameters of every list and search tool. */
export const PAGE: readonly McpLikeParameter[] = [
  ["?page_size", "integer", "Results per page (1-100, default 30)."],
  ["?cursor", "string", "Opaque cursor from the previous page."],
];

const REPO: readonly McpLikeParameter[] = [
  ["owner", "string", "Account or organisation that owns the repository."],
  ["repo", "string", "Repository name."],
];
const PROJECT: readonly McpLikeParameter[] = [["project_key", "string", "Key of the project, such as ENG."]];
const CALENDAR: readonly McpLikeParameter[] = [
  ["?calendar_id", "string", "Calendar to use; the primary calendar when omitted."],
];
const DATABASE: readonly McpLikeParameter[] = [
  ["?database", "string", "Database name; the default one when omitted."],
];

function resource(
  one: string,
  many: string,
  thing: string,
  things: string,
  options: Omit<Resource, "one" | "many" | "thing" | "things">,
): Resource {
  return { one, many, thing, things, ...options };
}

/** The servers whose resources get the usual verbs (see `mcpLikeTools`). */
export const MCP_LIKE_SERVERS: readonly Server[] = [
  {
    id: "github",
    prefix: "",
    resources: [
      resource("issue", "issues", "issue", "issues", {
        scope: "in a GitHub repository",
        scopeParameters: REPO,
        key: ["issue_number", "integer", "Number of the issue."],
        detail: "title, body, state, labels, assignees and comment count",
        filters: [
          ["?state", "string", "open, closed or all."],
          ["?labels", "string", "Comma-separated label names."],
          ["?assignee", "string", "Login of the assignee."],
        ],
        fields: [
          ["title", "string", "Issue title."],
          ["?body", "string", "Issue text in Markdown."],
          ["?labels", "array", "Labels to apply."],
          ["?assignees", "array", "Logins to assign."],
        ],
        verbs: ["list", "get", "search", "create", "update"],
      }),
      resource("pull_request", "pull_requests", "pull request", "pull requests", {
        scope: "in a GitHub repository",
        scopeParameters: REPO,
        key: ["pull_number", "integer", "Number of the pull request."],
        detail: "title, description, head and base branches, mergeable state and review status",
        filters: [
          ["?state", "string", "open, closed or all."],
          ["?base", "string", "Only pull requests into this branch."],
        ],
        fields: [
          ["title", "string", "Pull request title."],
          ["head", "string", "Branch with the changes."],
          ["base", "string", "Branch to merge into."],
          ["?body", "string", "Description in Markdown."],
          ["?draft", "boolean", "Open as a draft."],
        ],
        verbs: ["list", "get", "search", "create", "update"],
      }),
      resource("repository", "repositories", "repository", "repositories", {
        scope: "for a GitHub user or organisation",
        scopeParameters: [["owner", "string", "User or organisation login."]],
        key: ["repo", "string", "Repository name."],
        detail: "description, default branch, visibility, stars and open issue count",
        filters: [["?visibility", "string", "public, private or all."]],
        fields: [
          ["name", "string", "Repository name."],
          ["?description", "string", "Short description."],
          ["?private", "boolean", "Create it private."],
        ],
        verbs: ["list", "get", "search", "create"],
      }),
      resource("branch", "branches", "branch", "branches", {
        scope: "of a GitHub repository",
        scopeParameters: REPO,
        key: ["branch", "string", "Branch name."],
        detail: "latest commit and protection settings",
        filters: [["?protected", "boolean", "Only protected branches."]],
        fields: [
          ["branch", "string", "Name of the new branch."],
          ["?from_branch", "string", "Branch to start from; the default branch when omitted."],
        ],
        verbs: ["list", "create", "delete"],
      }),
      resource("commit", "commits", "commit", "commits", {
        scope: "in a GitHub repository",
        scopeParameters: REPO,
        key: ["sha", "string", "Commit SHA."],
        detail: "author, message, changed files and diff stats",
        filters: [
          ["?sha", "string", "Branch or commit to start listing from."],
          ["?path", "string", "Only commits touching this path."],
          ["?since", "string", "ISO 8601 date."],
        ],
        fields: [],
        verbs: ["list", "get"],
      }),
      resource("release", "releases", "release", "releases", {
        scope: "of a GitHub repository",
        scopeParameters: REPO,
        key: ["tag", "string", "Tag name of the release."],
        detail: "tag, name, release notes and assets",
        filters: [],
        fields: [
          ["tag", "string", "Tag to create or use."],
          ["?name", "string", "Release title."],
          ["?notes", "string", "Release notes in Markdown."],
          ["?prerelease", "boolean", "Mark as a pre-release."],
        ],
        verbs: ["list", "get", "create"],
      }),
      resource(
        "workflow_run",
        "workflow_runs",
        "GitHub Actions workflow run",
        "GitHub Actions workflow runs",
        {
          scope: "in a repository",
          scopeParameters: REPO,
          key: ["run_id", "integer", "Workflow run id."],
          detail: "status, conclusion, triggering event, jobs and timing",
          filters: [
            ["?status", "string", "queued, in_progress, completed, failure or success."],
            ["?branch", "string", "Only runs on this branch."],
          ],
          fields: [],
          verbs: ["list", "get"],
        },
      ),
    ],
  },
  {
    id: "slack",
    prefix: "slack_",
    resources: [
      resource("channel", "channels", "Slack channel", "Slack channels", {
        scope: "in the workspace",
        scopeParameters: [],
        key: ["channel_id", "string", "Channel id or #name."],
        detail: "topic, purpose, member count and whether it is archived",
        filters: [["?include_archived", "boolean", "Include archived channels."]],
        fields: [
          ["name", "string", "Channel name without #."],
          ["?is_private", "boolean", "Make it a private channel."],
          ["?topic", "string", "Channel topic."],
        ],
        verbs: ["list", "get", "create"],
      }),
      resource("message", "messages", "message", "messages", {
        scope: "in a Slack channel",
        scopeParameters: [["channel_id", "string", "Channel id or #name."]],
        key: ["ts", "string", "Timestamp id of the message."],
        detail: "text, author, reactions and thread replies",
        filters: [
          ["?query", "string", "Words to match, with Slack search modifiers such as from:@user."],
          ["?oldest", "string", "Only messages after this timestamp."],
        ],
        fields: [["text", "string", "Message text (Slack mrkdwn)."]],
        verbs: ["search", "update", "delete"],
      }),
      resource("user", "users", "Slack user", "Slack users", {
        scope: "in the workspace",
        scopeParameters: [],
        key: ["user_id", "string", "Slack user id."],
        detail: "display name, real name, title, time zone and status",
        filters: [["?include_bots", "boolean", "Include bot users."]],
        fields: [],
        verbs: ["list", "get"],
      }),
      resource("reminder", "reminders", "Slack reminder", "Slack reminders", {
        scope: "for the current user",
        scopeParameters: [],
        key: ["reminder_id", "string", "Reminder id."],
        detail: "text, time and whether it is complete",
        filters: [],
        fields: [
          ["text", "string", "What to be reminded of."],
          ["time", "string", "When: a timestamp or natural language such as 'in 15 minutes'."],
        ],
        verbs: ["list", "create", "delete"],
      }),
    ],
  },
  {
    id: "filesystem",
    prefix: "",
    resources: [],
  },
  {
    id: "jira",
    prefix: "jira_",
    resources: [
      resource("issue", "issues", "Jira issue", "Jira issues", {
        scope: "in a Jira project",
        scopeParameters: PROJECT,
        key: ["issue_key", "string", "Issue key such as ENG-123."],
        detail: "summary, description, status, priority, assignee, sprint and story points",
        filters: [
          ["?jql", "string", "JQL filter, such as status = 'In Progress'."],
          ["?assignee", "string", "Account id of the assignee."],
        ],
        fields: [
          ["summary", "string", "One-line summary."],
          ["?description", "string", "Longer description."],
          ["?issue_type", "string", "Bug, Story, Task or Epic."],
          ["?priority", "string", "Highest, High, Medium, Low or Lowest."],
          ["?assignee", "string", "Account id to assign."],
        ],
        verbs: ["get", "search", "create", "update", "delete"],
      }),
      resource("project", "projects", "Jira project", "Jira projects", {
        scope: "on the Jira site",
        scopeParameters: [],
        key: ["project_key", "string", "Project key."],
        detail: "name, lead, issue types and components",
        filters: [],
        fields: [],
        verbs: ["list", "get"],
      }),
      resource("sprint", "sprints", "sprint", "sprints", {
        scope: "of a Jira board",
        scopeParameters: [["board_id", "integer", "Agile board id."]],
        key: ["sprint_id", "integer", "Sprint id."],
        detail: "goal, start and end dates, state and the issues in it",
        filters: [["?state", "string", "future, active or closed."]],
        fields: [
          ["name", "string", "Sprint name."],
          ["?goal", "string", "Sprint goal."],
          ["?start_date", "string", "ISO 8601 start."],
          ["?end_date", "string", "ISO 8601 end."],
        ],
        verbs: ["list", "get", "create", "update"],
      }),
      resource("board", "boards", "Jira agile board", "Jira agile boards", {
        scope: "on the Jira site",
        scopeParameters: [],
        key: ["board_id", "integer", "Board id."],
        detail: "type (scrum or kanban), columns and project",
        filters: [["?project_key", "string", "Only boards of this project."]],
        fields: [],
        verbs: ["list", "get"],
      }),
      resource("comment", "comments", "comment on a Jira issue", "comments on a Jira issue", {
        scope: "",
        scopeParameters: [["issue_key", "string", "Issue key such as ENG-123."]],
        key: ["comment_id", "string", "Comment id."],
        detail: "author, body and timestamps",
        filters: [],
        fields: [["body", "string", "Comment text."]],
        verbs: ["list", "create", "update", "delete"],
      }),
    ],
  },
  {
    id: "calendar",
    prefix: "",
    resources: [
      resource("event", "events", "calendar event", "calendar events", {
        scope: "on a calendar",
        scopeParameters: CALENDAR,
        key: ["event_id", "string", "Event id."],
        detail: "title, start and end times, location, attendees and their responses, and the video link",
        filters: [
          ["?time_min", "string", "Start of the window (RFC 3339)."],
          ["?time_max", "string", "End of the window (RFC 3339)."],
          ["?q", "string", "Free-text filter on title, description and location."],
        ],
        fields: [
          ["summary", "string", "Event title."],
          ["start", "string", "Start time (RFC 3339)."],
          ["end", "string", "End time (RFC 3339)."],
          ["?attendees", "array", "Email addresses to invite."],
          ["?location", "string", "Where it takes place."],
          ["?description", "string", "Agenda or notes."],
        ],
        verbs: ["list", "get", "search", "create", "update", "delete"],
      }),
      resource("calendar", "calendars", "calendar", "calendars", {
        scope: "the user can access",
        scopeParameters: [],
        key: ["calendar_id", "string", "Calendar id."],
        detail: "name, time zone, colour and access role",
        filters: [],
        fields: [
          ["summary", "string", "Calendar name."],
          ["?time_zone", "string", "IANA time zone."],
        ],
        verbs: ["list", "get", "create"],
      }),
    ],
  },
  {
    id: "postgres",
    prefix: "",
    resources: [
      resource("table", "tables", "database table", "database tables", {
        scope: "in a schema of the PostgreSQL database",
        scopeParameters: [...DATABASE, ["?schema", "string", "Schema name, public by default."]],
        key: ["table", "string", "Table name."],
        detail: "columns with types and nullability, primary key, indexes and estimated row count",
        filters: [],
        fields: [],
        verbs: ["list"],
      }),
      resource("schema", "schemas", "database schema", "database schemas", {
        scope: "in the PostgreSQL database",
        scopeParameters: DATABASE,
        key: ["schema", "string", "Schema name."],
        detail: "tables, views and functions",
        filters: [],
        fields: [],
        verbs: ["list"],
      }),
      resource("index", "indexes", "database index", "database indexes", {
        scope: "on a PostgreSQL table",
        scopeParameters: [...DATABASE, ["table", "string", "Table name."]],
        key: ["index_name", "string", "Index name."],
        detail: "columns, uniqueness and size",
        filters: [],
        fields: [
          ["columns", "array", "Columns to index, in order."],
          ["?unique", "boolean", "Create a unique index."],
        ],
        verbs: ["list", "create"],
      }),
    ],
  },
  {
    id: "browser",
    prefix: "browser_",
    resources: [
      resource("tab", "tabs", "browser tab", "browser tabs", {
        scope: "in the controlled browser",
        scopeParameters: [],
        key: ["tab_index", "integer", "Position of the tab."],
        detail: "URL and title",
        filters: [],
        fields: [["?url", "string", "URL to open in the new tab."]],
        verbs: ["list", "create", "delete"],
      }),
    ],
  },
  {
    id: "gmail",
    prefix: "",
    resources: [
      resource("email", "emails", "email", "emails", {
        scope: "in the user's mailbox",
        scopeParameters: [],
        key: ["message_id", "string", "Message id."],
        detail: "sender, recipients, subject, body, attachments and labels",
        filters: [
          ["?query", "string", "Gmail search syntax, such as from:alice is:unread after:2024/01/01."],
          ["?label", "string", "Only messages with this label, such as INBOX."],
        ],
        fields: [],
        verbs: ["list", "get", "search", "delete"],
      }),
      resource("draft", "drafts", "email draft", "email drafts", {
        scope: "in the mailbox",
        scopeParameters: [],
        key: ["draft_id", "string", "Draft id."],
        detail: "recipients, subject and body",
        filters: [],
        fields: [
          ["to", "array", "Recipient email addresses."],
          ["subject", "string", "Subject line."],
          ["body", "string", "Plain-text body."],
          ["?cc", "array", "Copy recipients."],
        ],
        verbs: ["list", "create", "update", "delete"],
      }),
      resource("label", "labels", "mailbox label", "mailbox labels", {
        scope: "of the mailbox",
        scopeParameters: [],
        key: ["label_id", "string", "Label id."],
        detail: "name, message counts and colour",
        filters: [],
        fields: [["name", "string", "Label name; use / for nesting."]],
        verbs: ["list", "create", "delete"],
      }),
      resource("filter", "filters", "mail filter", "mail filters", {
        scope: "of the mailbox",
        scopeParameters: [],
        key: ["filter_id", "string", "Filter id."],
        detail: "criteria and actions",
        filters: [],
        fields: [
          ["criteria", "object", "Which messages match: from, to, subject, has_words."],
          ["action", "object", "What to do: add_labels, remove_labels, forward."],
        ],
        verbs: ["list", "create", "delete"],
      }),
    ],
  },
  {
    id: "notion",
    prefix: "notion_",
    resources: [
      resource("page", "pages", "Notion page", "Notion pages", {
        scope: "in the workspace",
        scopeParameters: [],
        key: ["page_id", "string", "Page id."],
        detail: "title, properties, parent and last edit time",
        filters: [["?query", "string", "Words in the page title."]],
        fields: [
          ["title", "string", "Page title."],
          ["?parent_id", "string", "Parent page or database id."],
          ["?content", "string", "Page body in Markdown."],
        ],
        verbs: ["get", "search", "create", "update", "delete"],
      }),
      resource("database", "databases", "Notion database", "Notion databases", {
        scope: "shared with the integration",
        scopeParameters: [],
        key: ["database_id", "string", "Database id."],
        detail: "title and property schema",
        filters: [],
        fields: [
          ["title", "string", "Database title."],
          ["parent_id", "string", "Page that will hold it."],
          ["properties", "object", "Property schema."],
        ],
        verbs: ["list", "get", "create"],
      }),
      resource("comment", "comments", "comment on a Notion page", "comments on a Notion page", {
        scope: "",
        scopeParameters: [["page_id", "string", "Page id."]],
        key: ["comment_id", "string", "Comment id."],
        detail: "author and rich text",
        filters: [],
        fields: [["text", "string", "Comment text."]],
        verbs: ["list", "create"],
      }),
    ],
  },
  {
    id: "sentry",
    prefix: "",
    resources: [
      resource("issue", "issues", "Sentry error issue", "Sentry error issues", {
        scope: "in a Sentry project",
        scopeParameters: [
          ["organization", "string", "Organisation slug."],
          ["project", "string", "Project slug."],
        ],
        key: ["issue_id", "string", "Sentry issue id."],
        detail: "title, culprit, first and last seen, event count, affected users and status",
        filters: [
          ["?query", "string", "Sentry search, such as is:unresolved level:error."],
          ["?environment", "string", "production, staging, ..."],
        ],
        fields: [
          ["?status", "string", "resolved, unresolved or ignored."],
          ["?assigned_to", "string", "User or team to assign."],
        ],
        verbs: ["list", "get", "search", "update"],
      }),
      resource("event", "events", "error event", "error events", {
        scope: "of a Sentry issue",
        scopeParameters: [["issue_id", "string", "Sentry issue id."]],
        key: ["event_id", "string", "Event id."],
        detail: "stack trace, breadcrumbs, tags, release and request data",
        filters: [],
        fields: [],
        verbs: ["list", "get"],
      }),
      resource("alert_rule", "alert_rules", "alert rule", "alert rules", {
        scope: "of a Sentry project",
        scopeParameters: [
          ["organization", "string", "Organisation slug."],
          ["project", "string", "Project slug."],
        ],
        key: ["rule_id", "string", "Rule id."],
        detail: "conditions, thresholds and notification actions",
        filters: [],
        fields: [
          ["name", "string", "Rule name."],
          ["conditions", "array", "When it fires."],
          ["actions", "array", "Whom to notify."],
        ],
        verbs: ["list", "create", "update", "delete"],
      }),
    ],
  },
];
