import type { McpLikeParameter } from "./mcp-like-catalog.js";

/** One hand-written tool of the held-back set: server, name, description, parameters. */
export type HoldoutTool = readonly [
  server: string,
  name: string,
  description: string,
  parameters: readonly McpLikeParameter[],
];

const PAGING: readonly McpLikeParameter[] = [
  ["?limit", "integer", "Maximum number of results (default 50)."],
  ["?cursor", "string", "Cursor returned by the previous call."],
];
const LINEAR_ISSUE: McpLikeParameter = ["id", "string", "Issue identifier such as ENG-123, or its UUID."];
const HUBSPOT_PROPERTIES: McpLikeParameter = ["?properties", "array", "Property names to return."];
const HUBSPOT_FILTERS: readonly McpLikeParameter[] = [
  ["?query", "string", "Free text matched against the default searchable properties."],
  ["?filterGroups", "array", "Property filters, e.g. {propertyName, operator, value}."],
  ["?sorts", "array", "Sort order."],
];
const RECORD_ID: McpLikeParameter = ["recordId", "string", "HubSpot record ID."];
const DRIVE_FILE: McpLikeParameter = ["file_id", "string", "Drive file ID."];
const DOCUMENT: McpLikeParameter = ["document_id", "string", "Google Doc ID."];
const SPREADSHEET: McpLikeParameter = ["spreadsheet_id", "string", "Spreadsheet ID."];
const PROJECT_SLUG: McpLikeParameter = ["projectSlug", "string", "Project slug, e.g. gh/acme/api."];
const BRANCH: McpLikeParameter = ["?branch", "string", "Branch name; the default branch when omitted."];
const PD_INCIDENT: McpLikeParameter = ["incident_id", "string", "PagerDuty incident ID."];
const TEAM: McpLikeParameter = ["team_id", "string", "ID of the team."];
const CHANNEL: readonly McpLikeParameter[] = [TEAM, ["channel_id", "string", "ID of the channel."]];
const CHAT: McpLikeParameter = ["chat_id", "string", "ID of the chat."];
const BOOKING: McpLikeParameter = ["bookingUid", "string", "UID of the booking."];
const COLLECTION: readonly McpLikeParameter[] = [
  ["database", "string", "Database name."],
  ["collection", "string", "Collection name."],
];
const TICKET: McpLikeParameter = ["ticket_id", "integer", "Zendesk ticket ID."];

/**
 * The held-back MCP-like catalog: ten servers in other domains than `bench/data/mcp-like` (issue tracker, CRM,
 * payments, cloud documents and storage, CI/CD, incident response, chat, scheduling, a document database, help
 * desk), with names in the styles real servers use (plain snake_case, server-prefixed, camelCase, kebab-case)
 * and descriptions written by hand, not from templates. Never used to tune the ranking.
 */
export const HOLDOUT_TOOLS: readonly HoldoutTool[] = [
  // linear: issue tracker, unprefixed names
  [
    "linear",
    "list_issues",
    "List issues in the user's Linear workspace. Filter by team, assignee, state, label, cycle or project; results are ordered by last update.",
    [
      ["?team", "string", "Team key or name."],
      ["?assignee", "string", "User name, email or 'me'."],
      ["?state", "string", "Workflow state name."],
      ["?cycle", "string", "Cycle number or 'current'."],
      ...PAGING,
    ],
  ],
  [
    "linear",
    "get_issue",
    "Retrieve a Linear issue by its identifier (e.g. ENG-123), including description, state, assignee, labels, attachments and parent and sub-issues.",
    [LINEAR_ISSUE],
  ],
  [
    "linear",
    "search_issues",
    "Search Linear issues by free text across titles and descriptions.",
    [["query", "string", "Text to search for."], ["?team", "string", "Team key."], ...PAGING],
  ],
  [
    "linear",
    "create_issue",
    "Create a new Linear issue in a team. Supports title, markdown description, priority (0-4), assignee, labels, project, cycle, parent issue and due date.",
    [
      ["team", "string", "Team key or name."],
      ["title", "string", "Issue title."],
      ["?description", "string", "Markdown description."],
      ["?priority", "integer", "0 none, 1 urgent, 2 high, 3 medium, 4 low."],
      ["?assignee", "string", "User name or email."],
      ["?labels", "array", "Label names."],
    ],
  ],
  [
    "linear",
    "update_issue",
    "Update an existing Linear issue: title, description, state, priority, assignee, labels, estimate, project or due date.",
    [
      LINEAR_ISSUE,
      ["?state", "string", "New workflow state."],
      ["?assignee", "string", "New assignee."],
      ["?priority", "integer", "New priority."],
    ],
  ],
  ["linear", "list_comments", "List the comments on a Linear issue, oldest first.", [LINEAR_ISSUE]],
  [
    "linear",
    "create_comment",
    "Add a comment to a Linear issue. The body is markdown.",
    [LINEAR_ISSUE, ["body", "string", "Comment in markdown."]],
  ],
  [
    "linear",
    "list_projects",
    "List projects in the Linear workspace with their status, lead, target date and progress.",
    [["?team", "string", "Only projects of this team."], ...PAGING],
  ],
  [
    "linear",
    "get_project",
    "Get a Linear project by id or name: description, milestones, members and linked issues.",
    [["project", "string", "Project id or name."]],
  ],
  [
    "linear",
    "create_project",
    "Create a new Linear project for one or more teams, with a lead, target date and description.",
    [
      ["name", "string", "Project name."],
      ["teams", "array", "Team keys."],
      ["?lead", "string", "Project lead."],
      ["?targetDate", "string", "ISO date."],
    ],
  ],
  ["linear", "list_teams", "List the teams in the Linear workspace.", PAGING],
  [
    "linear",
    "list_users",
    "List the members of the Linear workspace, with names, emails and whether they are active.",
    PAGING,
  ],
  [
    "linear",
    "list_issue_statuses",
    "List the workflow states (Backlog, Todo, In Progress, Done, Canceled, ...) available for a team.",
    [["team", "string", "Team key."]],
  ],
  [
    "linear",
    "list_issue_labels",
    "List the issue labels of the workspace or of one team.",
    [["?team", "string", "Team key."]],
  ],
  [
    "linear",
    "list_cycles",
    "List the cycles (sprints) of a team: current, upcoming and past, with start and end dates.",
    [
      ["team", "string", "Team key."],
      ["?type", "string", "current, next, previous or all."],
    ],
  ],
  ["linear", "list_documents", "List documents in the Linear workspace.", PAGING],
  [
    "linear",
    "get_document",
    "Get a Linear document's content by id or slug.",
    [["id", "string", "Document id or slug."]],
  ],

  // hubspot: CRM, prefixed names
  [
    "hubspot",
    "hubspot_list_contacts",
    "Lists contacts in HubSpot CRM with the requested properties. Paginated.",
    [HUBSPOT_PROPERTIES, ...PAGING],
  ],
  [
    "hubspot",
    "hubspot_get_contact",
    "Get a HubSpot contact by record ID or email address, with its properties and associated companies and deals.",
    [["idOrEmail", "string", "Record ID or email address."], HUBSPOT_PROPERTIES],
  ],
  [
    "hubspot",
    "hubspot_search_contacts",
    "Search HubSpot contacts with property filters (for example lifecycle stage, owner, last activity date) and a free-text query.",
    [...HUBSPOT_FILTERS, ...PAGING],
  ],
  [
    "hubspot",
    "hubspot_create_contact",
    "Create a contact in HubSpot. Email is the unique key; first name, last name, phone, company and job title are optional.",
    [
      ["email", "string", "Email address."],
      ["?firstname", "string", "First name."],
      ["?lastname", "string", "Last name."],
      ["?company", "string", "Company name."],
    ],
  ],
  [
    "hubspot",
    "hubspot_update_contact",
    "Update properties of an existing HubSpot contact.",
    [RECORD_ID, ["properties", "object", "Property values to set."]],
  ],
  ["hubspot", "hubspot_list_companies", "Lists company records in HubSpot.", [HUBSPOT_PROPERTIES, ...PAGING]],
  [
    "hubspot",
    "hubspot_get_company",
    "Get a company record by ID or domain, including its owner, industry, lifecycle stage and associated contacts.",
    [["idOrDomain", "string", "Record ID or web domain."]],
  ],
  [
    "hubspot",
    "hubspot_search_companies",
    "Search company records by name, domain or any property filter.",
    [...HUBSPOT_FILTERS, ...PAGING],
  ],
  [
    "hubspot",
    "hubspot_create_company",
    "Create a company record with a name, domain, industry and number of employees.",
    [
      ["name", "string", "Company name."],
      ["?domain", "string", "Web domain."],
    ],
  ],
  [
    "hubspot",
    "hubspot_list_deals",
    "List deals with their stage, amount, close date and owner.",
    [HUBSPOT_PROPERTIES, ["?pipeline", "string", "Pipeline ID."], ...PAGING],
  ],
  [
    "hubspot",
    "hubspot_get_deal",
    "Get a deal by record ID with its stage history and associated contacts and company.",
    [RECORD_ID],
  ],
  [
    "hubspot",
    "hubspot_create_deal",
    "Create a deal in a pipeline stage with an amount, close date and owner; optionally associate it with contacts and a company.",
    [
      ["dealname", "string", "Deal name."],
      ["dealstage", "string", "Stage ID."],
      ["?amount", "number", "Deal amount."],
      ["?closedate", "string", "ISO date."],
    ],
  ],
  [
    "hubspot",
    "hubspot_update_deal",
    "Update a deal, for example move it to another pipeline stage or change its amount or close date.",
    [RECORD_ID, ["properties", "object", "Property values to set."]],
  ],
  [
    "hubspot",
    "hubspot_list_pipelines",
    "List the deal and ticket pipelines of the account and their stages.",
    [["objectType", "string", "deals or tickets."]],
  ],
  [
    "hubspot",
    "hubspot_create_note",
    "Create a note engagement on a contact, company or deal record.",
    [
      ["body", "string", "Note text."],
      ["associations", "array", "Records to attach the note to."],
    ],
  ],
  [
    "hubspot",
    "hubspot_create_task",
    "Create a task for a HubSpot user with a due date and priority, optionally linked to a record.",
    [
      ["subject", "string", "Task title."],
      ["?dueDate", "string", "ISO date-time."],
      ["?ownerId", "string", "Owner of the task."],
    ],
  ],
  [
    "hubspot",
    "hubspot_log_call",
    "Log a call with a contact: outcome, duration and notes.",
    [RECORD_ID, ["?outcome", "string", "Call outcome."], ["?notes", "string", "Call notes."]],
  ],
  [
    "hubspot",
    "hubspot_list_owners",
    "List the users who can own CRM records (sales reps), with their owner IDs and emails.",
    PAGING,
  ],
  [
    "hubspot",
    "hubspot_associate_records",
    "Associate two CRM records, such as a contact with a company or a deal.",
    [
      ["fromRecord", "string", "First record (type and ID)."],
      ["toRecord", "string", "Second record (type and ID)."],
    ],
  ],
  [
    "hubspot",
    "hubspot_list_engagements",
    "List the activity timeline of a record: notes, emails, calls, meetings and tasks.",
    [RECORD_ID, ...PAGING],
  ],

  // stripe: payments, unprefixed names, descriptions in the toolkit's style
  [
    "stripe",
    "create_customer",
    "This tool will create a customer in Stripe. It takes a name and an optional email.",
    [
      ["name", "string", "The name of the customer."],
      ["?email", "string", "The email of the customer."],
    ],
  ],
  [
    "stripe",
    "list_customers",
    "This tool will fetch a list of Customers from Stripe. It can be filtered by email.",
    [["?email", "string", "A case-sensitive filter on the email."], ...PAGING],
  ],
  [
    "stripe",
    "create_product",
    "This tool will create a product in Stripe.",
    [
      ["name", "string", "The name of the product."],
      ["?description", "string", "The description of the product."],
    ],
  ],
  ["stripe", "list_products", "This tool will fetch a list of Products from Stripe.", PAGING],
  [
    "stripe",
    "create_price",
    "This tool will create a price in Stripe. If a product has not already been specified, a product should be created first.",
    [
      ["product", "string", "The ID of the product."],
      ["unit_amount", "integer", "Amount in the smallest currency unit."],
      ["currency", "string", "Three-letter ISO currency code."],
      ["?recurring_interval", "string", "day, week, month or year for recurring prices."],
    ],
  ],
  [
    "stripe",
    "list_prices",
    "This tool will fetch a list of Prices from Stripe.",
    [["?product", "string", "Only prices of this product."], ...PAGING],
  ],
  [
    "stripe",
    "create_payment_link",
    "This tool will create a payment link in Stripe for a price and quantity.",
    [
      ["price", "string", "The ID of the price."],
      ["quantity", "integer", "The quantity."],
    ],
  ],
  [
    "stripe",
    "create_invoice",
    "This tool will create an invoice in Stripe for a customer.",
    [
      ["customer", "string", "The ID of the customer."],
      ["?days_until_due", "integer", "Days until the invoice is due."],
    ],
  ],
  [
    "stripe",
    "create_invoice_item",
    "This tool will create an invoice item in Stripe: a line added to a draft invoice.",
    [
      ["customer", "string", "The ID of the customer."],
      ["price", "string", "The ID of the price."],
      ["invoice", "string", "The ID of the invoice."],
    ],
  ],
  [
    "stripe",
    "finalize_invoice",
    "This tool will finalize a draft invoice in Stripe so that it can be paid or sent.",
    [["invoice", "string", "The ID of the invoice."]],
  ],
  [
    "stripe",
    "send_invoice",
    "Sends a finalized invoice to the customer by email, with a link to pay it online.",
    [["invoice", "string", "The ID of the invoice."]],
  ],
  [
    "stripe",
    "list_invoices",
    "Fetch a list of invoices from Stripe, filtered by customer or status (draft, open, paid, void, uncollectible).",
    [["?customer", "string", "The ID of the customer."], ["?status", "string", "Invoice status."], ...PAGING],
  ],
  [
    "stripe",
    "retrieve_balance",
    "This tool will retrieve the balance from Stripe: the available and pending amounts per currency.",
    [],
  ],
  [
    "stripe",
    "create_refund",
    "This tool will refund a payment intent in Stripe, in full or in part.",
    [
      ["payment_intent", "string", "The ID of the PaymentIntent to refund."],
      ["?amount", "integer", "Amount to refund; the whole payment when omitted."],
    ],
  ],
  [
    "stripe",
    "list_payment_intents",
    "This tool will list payment intents (payments) in Stripe, optionally for one customer.",
    [["?customer", "string", "The ID of the customer."], ...PAGING],
  ],
  [
    "stripe",
    "list_subscriptions",
    "This tool will list subscriptions in Stripe, filtered by customer, price or status.",
    [
      ["?customer", "string", "The ID of the customer."],
      ["?status", "string", "Subscription status."],
      ...PAGING,
    ],
  ],
  [
    "stripe",
    "update_subscription",
    "This tool will update a subscription in Stripe: change its items, quantity or price, or set it to cancel at the end of the current period.",
    [
      ["subscription", "string", "The ID of the subscription."],
      ["?items", "array", "New subscription items."],
      ["?cancel_at_period_end", "boolean", "Cancel when the current period ends."],
    ],
  ],
  [
    "stripe",
    "cancel_subscription",
    "This tool will cancel a subscription in Stripe immediately.",
    [["subscription", "string", "The ID of the subscription."]],
  ],
  [
    "stripe",
    "create_coupon",
    "This tool will create a coupon in Stripe with a percentage or an amount off and a duration.",
    [
      ["?percent_off", "number", "Percentage off."],
      ["?amount_off", "integer", "Amount off."],
      ["duration", "string", "once, repeating or forever."],
      ["?duration_in_months", "integer", "Months, when repeating."],
    ],
  ],
  ["stripe", "list_coupons", "This tool will fetch a list of Coupons from Stripe.", PAGING],
  ["stripe", "list_disputes", "This tool will fetch a list of disputes (chargebacks) from Stripe.", PAGING],
  [
    "stripe",
    "update_dispute",
    "This tool will update a dispute in Stripe: submit evidence or change its metadata.",
    [
      ["dispute", "string", "The ID of the dispute."],
      ["?evidence", "object", "Evidence to submit."],
    ],
  ],
  [
    "stripe",
    "search_stripe_documentation",
    "Search the Stripe documentation and support articles for an answer to a question about Stripe.",
    [["question", "string", "The question to answer."]],
  ],

  // google-workspace: Drive, Docs and Sheets on one server, prefixed per product
  [
    "google-workspace",
    "drive_search_files",
    "Search Google Drive for files and folders by name or full text, with optional MIME type and owner filters.",
    [["query", "string", "Search text."], ["?mimeType", "string", "Restrict to a MIME type."], ...PAGING],
  ],
  [
    "google-workspace",
    "drive_list_files",
    "List the files in a Google Drive folder (My Drive's root when no folder is given), newest first.",
    [["?folder_id", "string", "Folder ID."], ...PAGING],
  ],
  [
    "google-workspace",
    "drive_get_file_metadata",
    "Get the metadata of a Drive file: name, MIME type, size, owners, modified time and sharing link.",
    [DRIVE_FILE],
  ],
  [
    "google-workspace",
    "drive_read_file",
    "Read the contents of a file in Google Drive. Google Docs are exported as Markdown, Sheets as CSV and PDFs as plain text.",
    [DRIVE_FILE],
  ],
  [
    "google-workspace",
    "drive_upload_file",
    "Upload a local file, or text content, to Google Drive into the given folder.",
    [
      ["name", "string", "File name in Drive."],
      ["?local_path", "string", "Local file to upload."],
      ["?content", "string", "Text content, instead of a local file."],
      ["?folder_id", "string", "Destination folder."],
    ],
  ],
  [
    "google-workspace",
    "drive_create_folder",
    "Create a folder in Google Drive.",
    [
      ["name", "string", "Folder name."],
      ["?parent_id", "string", "Parent folder."],
    ],
  ],
  [
    "google-workspace",
    "drive_move_file",
    "Move a file or folder to another Drive folder, or rename it.",
    [DRIVE_FILE, ["?new_parent_id", "string", "Destination folder."], ["?new_name", "string", "New name."]],
  ],
  [
    "google-workspace",
    "drive_copy_file",
    "Make a copy of a file in Google Drive, optionally with a new name.",
    [DRIVE_FILE, ["?name", "string", "Name of the copy."]],
  ],
  ["google-workspace", "drive_delete_file", "Move a file or folder to the trash.", [DRIVE_FILE]],
  [
    "google-workspace",
    "drive_share_file",
    "Share a Drive file or folder with a user, group or domain as viewer, commenter or editor.",
    [
      DRIVE_FILE,
      ["email_address", "string", "Who to share with."],
      ["role", "string", "reader, commenter or writer."],
    ],
  ],
  [
    "google-workspace",
    "drive_list_permissions",
    "List who has access to a Drive file and with which role.",
    [DRIVE_FILE],
  ],
  [
    "google-workspace",
    "drive_download_file",
    "Download a Drive file to a local path, exporting Google formats to PDF, DOCX, XLSX or CSV.",
    [
      DRIVE_FILE,
      ["local_path", "string", "Where to save it."],
      ["?export_format", "string", "pdf, docx, xlsx or csv."],
    ],
  ],
  [
    "google-workspace",
    "docs_create_document",
    "Create a new Google Doc with a title and optional initial content.",
    [
      ["title", "string", "Document title."],
      ["?content", "string", "Initial text (Markdown is converted)."],
    ],
  ],
  [
    "google-workspace",
    "docs_get_document",
    "Get the text and structure (headings, lists, tables) of a Google Doc.",
    [DOCUMENT],
  ],
  [
    "google-workspace",
    "docs_append_text",
    "Append text to the end of a Google Doc; Markdown is converted to Docs formatting.",
    [DOCUMENT, ["text", "string", "Text to append."]],
  ],
  [
    "google-workspace",
    "docs_replace_text",
    "Find and replace text everywhere in a Google Doc.",
    [DOCUMENT, ["find", "string", "Text to find."], ["replace_with", "string", "Replacement text."]],
  ],
  [
    "google-workspace",
    "sheets_create_spreadsheet",
    "Create a new Google Sheets spreadsheet with the given sheet names.",
    [
      ["title", "string", "Spreadsheet title."],
      ["?sheet_names", "array", "Names of the sheets."],
    ],
  ],
  [
    "google-workspace",
    "sheets_read_range",
    "Read the values in a range of a spreadsheet, such as Sheet1!A1:D20.",
    [SPREADSHEET, ["range", "string", "A1 notation range."]],
  ],
  [
    "google-workspace",
    "sheets_update_range",
    "Write values into a range of cells of a spreadsheet, overwriting what is there.",
    [SPREADSHEET, ["range", "string", "A1 notation range."], ["values", "array", "Rows of values."]],
  ],
  [
    "google-workspace",
    "sheets_append_rows",
    "Append rows after the last row that has data in a sheet.",
    [SPREADSHEET, ["sheet", "string", "Sheet name."], ["rows", "array", "Rows of values."]],
  ],
  [
    "google-workspace",
    "sheets_list_sheets",
    "List the sheets (tabs) of a spreadsheet with their row and column counts.",
    [SPREADSHEET],
  ],
  [
    "google-workspace",
    "sheets_add_sheet",
    "Add a new sheet (tab) to a spreadsheet.",
    [SPREADSHEET, ["title", "string", "Sheet name."]],
  ],

  // circleci: CI/CD, unprefixed names
  [
    "circleci",
    "list_followed_projects",
    "List the CircleCI projects the user follows, with their project slugs.",
    [],
  ],
  [
    "circleci",
    "get_latest_pipeline_status",
    "Get the status of the latest pipeline for a project branch: each workflow's status, duration and failed jobs.",
    [PROJECT_SLUG, BRANCH],
  ],
  [
    "circleci",
    "list_pipelines",
    "List recent pipelines of a CircleCI project, optionally for one branch, with their trigger, commit and state.",
    [PROJECT_SLUG, BRANCH, ...PAGING],
  ],
  [
    "circleci",
    "get_pipeline",
    "Get a pipeline by ID or number: its workflows, trigger and the commit it built.",
    [["pipelineId", "string", "Pipeline ID or number."]],
  ],
  [
    "circleci",
    "run_pipeline",
    "Trigger a new pipeline on a branch of a CircleCI project, with optional pipeline parameters.",
    [PROJECT_SLUG, BRANCH, ["?parameters", "object", "Pipeline parameters."]],
  ],
  [
    "circleci",
    "rerun_workflow",
    "Rerun a workflow, either from the start or from its failed jobs only.",
    [
      ["workflowId", "string", "Workflow ID."],
      ["?fromFailed", "boolean", "Only rerun the failed jobs."],
    ],
  ],
  [
    "circleci",
    "cancel_workflow",
    "Cancel a running workflow and all of its jobs.",
    [["workflowId", "string", "Workflow ID."]],
  ],
  [
    "circleci",
    "get_build_failure_logs",
    "Retrieve the logs of the failed steps of a CircleCI build, to find out why a job failed.",
    [PROJECT_SLUG, BRANCH, ["?jobNumber", "integer", "Job number; the latest failed job when omitted."]],
  ],
  [
    "circleci",
    "get_job_test_results",
    "Get the test results of a job: passed, failed and skipped tests with their failure messages.",
    [PROJECT_SLUG, ["jobNumber", "integer", "Job number."]],
  ],
  [
    "circleci",
    "find_flaky_tests",
    "Find flaky tests in a project: tests that both passed and failed on the same commit in recent runs.",
    [PROJECT_SLUG],
  ],
  [
    "circleci",
    "get_job_artifacts",
    "List the artifacts a job stored (coverage reports, binaries, screenshots) with their download URLs.",
    [PROJECT_SLUG, ["jobNumber", "integer", "Job number."]],
  ],
  [
    "circleci",
    "config_helper",
    "Validate a .circleci/config.yml file and explain its errors and deprecated keys.",
    [["configFile", "string", "Contents of the config file."]],
  ],
  [
    "circleci",
    "list_environment_variables",
    "List the names of a project's environment variables (values are masked).",
    [PROJECT_SLUG],
  ],
  [
    "circleci",
    "set_environment_variable",
    "Add or replace an environment variable of a CircleCI project.",
    [PROJECT_SLUG, ["name", "string", "Variable name."], ["value", "string", "Variable value."]],
  ],
  [
    "circleci",
    "approve_job",
    "Approve a job that is on hold in a workflow, so that the workflow continues.",
    [
      ["workflowId", "string", "Workflow ID."],
      ["approvalRequestId", "string", "ID of the approval job."],
    ],
  ],
  [
    "circleci",
    "run_rollback_pipeline",
    "Roll back a deployed component to an earlier version by running its rollback pipeline.",
    [PROJECT_SLUG, ["?version", "string", "Version to roll back to; the previous one when omitted."]],
  ],

  // pagerduty: incident response, unprefixed names
  [
    "pagerduty",
    "list_incidents",
    "List PagerDuty incidents, filtered by status (triggered, acknowledged, resolved), urgency, service or date range.",
    [
      ["?statuses", "array", "Statuses to include."],
      ["?service_ids", "array", "Services to include."],
      ["?since", "string", "Start of the date range."],
      ["?until", "string", "End of the date range."],
      ...PAGING,
    ],
  ],
  [
    "pagerduty",
    "get_incident",
    "Get one incident: title, status, urgency, service, assignees, escalation level and timeline.",
    [PD_INCIDENT],
  ],
  [
    "pagerduty",
    "create_incident",
    "Open a new incident on a service with a title, urgency and details. It pages the on-call responder.",
    [
      ["service_id", "string", "Service the incident is on."],
      ["title", "string", "Short summary."],
      ["?urgency", "string", "high or low."],
      ["?details", "string", "Longer description."],
    ],
  ],
  [
    "pagerduty",
    "acknowledge_incident",
    "Acknowledge an incident so that escalation stops while you work on it.",
    [PD_INCIDENT],
  ],
  ["pagerduty", "resolve_incident", "Mark an incident as resolved.", [PD_INCIDENT]],
  [
    "pagerduty",
    "reassign_incident",
    "Reassign an incident to another user or escalation policy.",
    [
      PD_INCIDENT,
      ["?user_id", "string", "New assignee."],
      ["?escalation_policy_id", "string", "New policy."],
    ],
  ],
  [
    "pagerduty",
    "add_incident_note",
    "Add a note to an incident's timeline.",
    [PD_INCIDENT, ["content", "string", "Note text."]],
  ],
  [
    "pagerduty",
    "create_status_update",
    "Post a status update on an incident, sent to its subscribers and stakeholders.",
    [PD_INCIDENT, ["message", "string", "Update text."]],
  ],
  [
    "pagerduty",
    "list_services",
    "List the services in PagerDuty with their status and escalation policy.",
    [["?query", "string", "Filter by name."], ...PAGING],
  ],
  [
    "pagerduty",
    "get_service",
    "Get a service's details: description, escalation policy, integrations and open incident count.",
    [["service_id", "string", "Service ID."]],
  ],
  [
    "pagerduty",
    "list_oncalls",
    "List who is on call now, or during a time window, per escalation policy and schedule.",
    [
      ["?schedule_ids", "array", "Schedules to include."],
      ["?since", "string", "Start of the window."],
      ["?until", "string", "End of the window."],
    ],
  ],
  ["pagerduty", "list_schedules", "List the on-call schedules.", [["?query", "string", "Filter by name."]]],
  [
    "pagerduty",
    "get_schedule",
    "Get an on-call schedule with its layers and the final rotation for a time range.",
    [
      ["schedule_id", "string", "Schedule ID."],
      ["?since", "string", "Start of the range."],
      ["?until", "string", "End of the range."],
    ],
  ],
  [
    "pagerduty",
    "create_schedule_override",
    "Create an override so that another user covers an on-call shift for a time range.",
    [
      ["schedule_id", "string", "Schedule ID."],
      ["user_id", "string", "User who covers."],
      ["start", "string", "Start time."],
      ["end", "string", "End time."],
    ],
  ],
  ["pagerduty", "list_escalation_policies", "List the escalation policies and their rules.", PAGING],
  [
    "pagerduty",
    "list_users",
    "List PagerDuty users with their contact methods and teams.",
    [["?query", "string", "Filter by name or email."], ...PAGING],
  ],
  [
    "pagerduty",
    "get_user",
    "Get a PagerDuty user's profile, contact methods and notification rules.",
    [["user_id", "string", "User ID."]],
  ],
  [
    "pagerduty",
    "create_maintenance_window",
    "Create a maintenance window for services: no incidents are opened for them while it lasts.",
    [
      ["service_ids", "array", "Services."],
      ["start_time", "string", "Start."],
      ["end_time", "string", "End."],
      ["?description", "string", "Why."],
    ],
  ],

  // teams: chat, prefixed names
  ["teams", "teams_list_teams", "List the Microsoft Teams the signed-in user is a member of.", []],
  ["teams", "teams_list_channels", "List the channels of a team.", [TEAM]],
  [
    "teams",
    "teams_create_channel",
    "Create a standard or private channel in a team.",
    [TEAM, ["displayName", "string", "Channel name."], ["?membershipType", "string", "standard or private."]],
  ],
  [
    "teams",
    "teams_get_channel_messages",
    "Read the most recent messages of a channel, with their replies.",
    [...CHANNEL, ["?top", "integer", "How many messages."]],
  ],
  [
    "teams",
    "teams_send_channel_message",
    "Post a message to a Teams channel. Supports HTML content and @mentions.",
    [...CHANNEL, ["content", "string", "Message body."]],
  ],
  [
    "teams",
    "teams_reply_to_message",
    "Reply to a message in a channel thread.",
    [...CHANNEL, ["message_id", "string", "Message to reply to."], ["content", "string", "Reply body."]],
  ],
  ["teams", "teams_list_chats", "List the user's one-on-one and group chats.", PAGING],
  [
    "teams",
    "teams_get_chat_messages",
    "Read the messages of a chat, newest first.",
    [CHAT, ["?top", "integer", "How many messages."]],
  ],
  [
    "teams",
    "teams_send_chat_message",
    "Send a message in a one-on-one or group chat.",
    [CHAT, ["content", "string", "Message body."]],
  ],
  [
    "teams",
    "teams_create_chat",
    "Start a new one-on-one or group chat with the given users.",
    [
      ["members", "array", "User emails or IDs."],
      ["?topic", "string", "Group chat topic."],
    ],
  ],
  [
    "teams",
    "teams_search_messages",
    "Search messages across the user's chats and channels.",
    [["query", "string", "Search text."], ...PAGING],
  ],
  [
    "teams",
    "teams_list_members",
    "List the members of a team or of a channel.",
    [TEAM, ["?channel_id", "string", "A channel, for its members only."]],
  ],
  [
    "teams",
    "teams_add_member",
    "Add a user to a team or to a private channel.",
    [TEAM, ["user", "string", "User email or ID."], ["?channel_id", "string", "Private channel."]],
  ],
  [
    "teams",
    "teams_create_online_meeting",
    "Create a Teams online meeting and return its join link.",
    [
      ["subject", "string", "Meeting subject."],
      ["startDateTime", "string", "Start."],
      ["endDateTime", "string", "End."],
    ],
  ],
  [
    "teams",
    "teams_set_presence",
    "Set the user's presence (available, busy, do not disturb, away) and status message.",
    [
      ["availability", "string", "Presence."],
      ["?statusMessage", "string", "Status message."],
      ["?expiration", "string", "When it ends."],
    ],
  ],
  [
    "teams",
    "teams_upload_file_to_channel",
    "Upload a file to a channel's Files tab (its SharePoint folder).",
    [...CHANNEL, ["path", "string", "Local file."]],
  ],
  [
    "teams",
    "teams_update_message",
    "Edit the text of a message you sent.",
    [...CHANNEL, ["message_id", "string", "Message."], ["content", "string", "New body."]],
  ],
  [
    "teams",
    "teams_delete_message",
    "Delete a message you sent in a channel or chat.",
    [
      ["message_id", "string", "Message."],
      ["?chat_id", "string", "Chat."],
      ["?channel_id", "string", "Channel."],
    ],
  ],

  // calcom: scheduling and bookings, camelCase names
  [
    "calcom",
    "getEventTypes",
    "List the user's event types (kinds of meetings people can book): title, length, slug and booking link.",
    [],
  ],
  [
    "calcom",
    "createEventType",
    "Create an event type with a title, slug, length in minutes and locations.",
    [
      ["title", "string", "Title."],
      ["slug", "string", "URL slug."],
      ["lengthInMinutes", "integer", "Length."],
    ],
  ],
  [
    "calcom",
    "updateEventType",
    "Update an event type's title, length, locations or booking limits.",
    [
      ["eventTypeId", "integer", "Event type ID."],
      ["?lengthInMinutes", "integer", "Length."],
    ],
  ],
  [
    "calcom",
    "getBookings",
    "Fetch bookings, filtered by status (upcoming, recurring, past, cancelled, unconfirmed), attendee email or date range.",
    [
      ["?status", "string", "Booking status."],
      ["?attendeeEmail", "string", "Attendee email."],
      ["?afterStart", "string", "Start of the range."],
      ["?beforeEnd", "string", "End of the range."],
    ],
  ],
  [
    "calcom",
    "getBooking",
    "Get one booking by UID, with its attendees, time, location and meeting link.",
    [BOOKING],
  ],
  [
    "calcom",
    "createBooking",
    "Book a time slot of an event type for an attendee (name, email, time zone).",
    [
      ["eventTypeId", "integer", "Event type ID."],
      ["start", "string", "Start time in UTC."],
      ["attendee", "object", "Name, email and time zone."],
    ],
  ],
  [
    "calcom",
    "rescheduleBooking",
    "Move a booking to a new start time. Attendees are notified.",
    [BOOKING, ["start", "string", "New start time."], ["?reschedulingReason", "string", "Reason."]],
  ],
  [
    "calcom",
    "cancelBooking",
    "Cancel a booking, with an optional reason. Attendees are notified.",
    [BOOKING, ["?cancellationReason", "string", "Reason."]],
  ],
  ["calcom", "confirmBooking", "Confirm a booking that is waiting for the host's confirmation.", [BOOKING]],
  [
    "calcom",
    "getAvailableSlots",
    "Get the free slots of an event type between two dates, in a time zone.",
    [
      ["eventTypeId", "integer", "Event type ID."],
      ["start", "string", "From date."],
      ["end", "string", "To date."],
      ["?timeZone", "string", "Time zone."],
    ],
  ],
  [
    "calcom",
    "getSchedules",
    "List the user's availability schedules (working hours per weekday and date overrides).",
    [],
  ],
  [
    "calcom",
    "updateSchedule",
    "Change the working hours or the date overrides of an availability schedule.",
    [
      ["scheduleId", "integer", "Schedule ID."],
      ["?availability", "array", "Working hours."],
      ["?overrides", "array", "Date overrides."],
    ],
  ],
  [
    "calcom",
    "getBusyTimes",
    "Get the busy times from the user's connected calendars for a date range.",
    [
      ["dateFrom", "string", "From."],
      ["dateTo", "string", "To."],
    ],
  ],
  [
    "calcom",
    "getConnectedCalendars",
    "List the calendars connected to the account (Google, Outlook, iCloud) and which one new bookings are written to.",
    [],
  ],
  [
    "calcom",
    "markNoShow",
    "Mark the host or attendees of a past booking as no-show.",
    [BOOKING, ["?attendees", "array", "Attendee emails."]],
  ],
  [
    "calcom",
    "getMe",
    "Get the authenticated user's profile: name, email, time zone and default schedule.",
    [],
  ],

  // mongodb: document database, kebab-case names
  ["mongodb", "list-databases", "List all databases for a MongoDB connection.", []],
  [
    "mongodb",
    "list-collections",
    "List all collections for a given database.",
    [["database", "string", "Database name."]],
  ],
  [
    "mongodb",
    "collection-schema",
    "Describe the schema for a collection, inferred from a sample of its documents.",
    COLLECTION,
  ],
  ["mongodb", "collection-indexes", "Describe the indexes for a collection.", COLLECTION],
  ["mongodb", "collection-storage-size", "Gets the size of the collection.", COLLECTION],
  [
    "mongodb",
    "find",
    "Run a find query against a MongoDB collection, with a filter, projection, sort and limit.",
    [
      ...COLLECTION,
      ["?filter", "object", "Query filter."],
      ["?projection", "object", "Fields to return."],
      ["?sort", "object", "Sort order."],
      ["?limit", "integer", "Most documents."],
    ],
  ],
  [
    "mongodb",
    "aggregate",
    "Run an aggregation framework pipeline against a MongoDB collection.",
    [...COLLECTION, ["pipeline", "array", "Aggregation stages."]],
  ],
  [
    "mongodb",
    "count",
    "Gets the number of documents in a MongoDB collection that match a filter.",
    [...COLLECTION, ["?query", "object", "Filter."]],
  ],
  [
    "mongodb",
    "insert-many",
    "Insert an array of documents into a MongoDB collection.",
    [...COLLECTION, ["documents", "array", "Documents to insert."]],
  ],
  [
    "mongodb",
    "update-many",
    "Updates all documents that match the specified filter for a collection.",
    [...COLLECTION, ["filter", "object", "Filter."], ["update", "object", "Update operators."]],
  ],
  [
    "mongodb",
    "delete-many",
    "Removes all documents that match the filter from a MongoDB collection.",
    [...COLLECTION, ["filter", "object", "Filter."]],
  ],
  [
    "mongodb",
    "create-index",
    "Create an index for a collection.",
    [...COLLECTION, ["keys", "object", "Index keys."], ["?name", "string", "Index name."]],
  ],
  [
    "mongodb",
    "create-collection",
    "Creates a new collection in a database. If the database doesn't exist, it will be created automatically.",
    COLLECTION,
  ],
  [
    "mongodb",
    "drop-collection",
    "Removes a collection or view from the database. The method also removes any indexes associated with the dropped collection.",
    COLLECTION,
  ],
  [
    "mongodb",
    "rename-collection",
    "Renames a collection in a MongoDB database.",
    [...COLLECTION, ["newName", "string", "New name."]],
  ],
  [
    "mongodb",
    "explain",
    "Returns statistics describing the execution of the winning plan chosen by the query optimizer for the evaluated method.",
    [...COLLECTION, ["method", "array", "The find, aggregate or count call to explain."]],
  ],
  [
    "mongodb",
    "db-stats",
    "Returns statistics that reflect the use state of a single database.",
    [["database", "string", "Database name."]],
  ],
  [
    "mongodb",
    "export",
    "Export the results of a find or aggregate query to a JSON file on disk.",
    [
      ...COLLECTION,
      ["exportTarget", "array", "The find or aggregate to run."],
      ["exportTitle", "string", "Name of the export."],
    ],
  ],
  [
    "mongodb",
    "mongodb-logs",
    "Returns the most recent logged mongod events.",
    [["?limit", "integer", "Most events."]],
  ],

  // zendesk: help desk, prefixed names
  [
    "zendesk",
    "zendesk_list_tickets",
    "List tickets, newest first. Filter by status (new, open, pending, solved), assignee, group or organization.",
    [
      ["?status", "string", "Ticket status."],
      ["?assignee_id", "integer", "Assignee."],
      ["?group_id", "integer", "Group."],
      ...PAGING,
    ],
  ],
  [
    "zendesk",
    "zendesk_search_tickets",
    "Search tickets with Zendesk search syntax or plain words, for example 'status:open refund'.",
    [["query", "string", "Search query."], ...PAGING],
  ],
  [
    "zendesk",
    "zendesk_get_ticket",
    "Get a ticket by ID with its subject, description, status, priority, requester, assignee and tags.",
    [TICKET],
  ],
  [
    "zendesk",
    "zendesk_create_ticket",
    "Create a support ticket on behalf of a requester.",
    [
      ["subject", "string", "Subject."],
      ["description", "string", "First comment."],
      ["?requester_email", "string", "Requester."],
      ["?priority", "string", "low, normal, high or urgent."],
    ],
  ],
  [
    "zendesk",
    "zendesk_update_ticket",
    "Update a ticket's status, priority, assignee, group, tags or custom fields.",
    [
      TICKET,
      ["?status", "string", "New status."],
      ["?priority", "string", "New priority."],
      ["?assignee_id", "integer", "New assignee."],
      ["?group_id", "integer", "New group."],
    ],
  ],
  [
    "zendesk",
    "zendesk_get_ticket_comments",
    "Get the conversation of a ticket: public replies and internal notes, oldest first.",
    [TICKET],
  ],
  [
    "zendesk",
    "zendesk_reply_to_ticket",
    "Add a public reply to a ticket; the requester receives it by email.",
    [TICKET, ["body", "string", "Reply text."]],
  ],
  [
    "zendesk",
    "zendesk_add_internal_note",
    "Add an internal note to a ticket, visible to agents only.",
    [TICKET, ["body", "string", "Note text."]],
  ],
  [
    "zendesk",
    "zendesk_merge_tickets",
    "Merge one or more tickets into a target ticket.",
    [
      ["target_ticket_id", "integer", "Ticket to keep."],
      ["source_ticket_ids", "array", "Tickets to merge into it."],
    ],
  ],
  ["zendesk", "zendesk_list_macros", "List the macros available to agents.", PAGING],
  [
    "zendesk",
    "zendesk_apply_macro",
    "Apply a macro (a saved set of actions and a canned reply) to a ticket.",
    [TICKET, ["macro_id", "integer", "Macro."]],
  ],
  [
    "zendesk",
    "zendesk_list_users",
    "List users (end users and agents).",
    [["?role", "string", "end-user, agent or admin."], ...PAGING],
  ],
  [
    "zendesk",
    "zendesk_get_user",
    "Get a user by ID or email, with their organization and recent tickets.",
    [["idOrEmail", "string", "User ID or email."]],
  ],
  [
    "zendesk",
    "zendesk_create_user",
    "Create an end user (a customer) with a name and email.",
    [
      ["name", "string", "Name."],
      ["email", "string", "Email."],
    ],
  ],
  ["zendesk", "zendesk_list_organizations", "List the customer organizations.", PAGING],
  [
    "zendesk",
    "zendesk_get_organization",
    "Get an organization with its domains, tags and ticket counts.",
    [["organization_id", "integer", "Organization."]],
  ],
  ["zendesk", "zendesk_list_groups", "List the agent groups.", PAGING],
  [
    "zendesk",
    "zendesk_search_articles",
    "Search Help Center articles by keywords.",
    [
      ["query", "string", "Keywords."],
      ["?locale", "string", "Locale."],
    ],
  ],
  [
    "zendesk",
    "zendesk_get_article",
    "Get a Help Center article's title and body.",
    [["article_id", "integer", "Article."]],
  ],
  [
    "zendesk",
    "zendesk_create_article",
    "Create a Help Center article in a section, as a draft or published.",
    [
      ["section_id", "integer", "Section."],
      ["title", "string", "Title."],
      ["body", "string", "HTML body."],
      ["?draft", "boolean", "Save as a draft."],
    ],
  ],
  [
    "zendesk",
    "zendesk_get_satisfaction_ratings",
    "List customer satisfaction (CSAT) ratings, good or bad, with their comments.",
    [["?score", "string", "good or bad."], ["?start_time", "string", "Since."], ...PAGING],
  ],
];
