/**
 * The GraphQL schema (SDL): the one contract between the server and every client. The names
 * below are public (integrators and our own clients rely on them): extend freely, never rename.
 * Conventions: Relay connections (`edges { cursor node }`, `pageInfo`), one input object and one
 * payload type per mutation, DateTime as ISO-8601 strings, errors coded in `extensions.code`.
 */
export const typeDefs = /* GraphQL */ `
  "An ISO-8601 date and time in UTC, e.g. 2026-11-21T10:00:00.000Z."
  scalar DateTime
  "A file sent with the GraphQL multipart request spec."
  scalar File

  enum Role {
    COMMENTER
    STAFF
    MODERATOR
    ADMIN
  }

  enum UserStatus {
    ACTIVE
    SUSPENDED
    BANNED
    PREMOD
  }

  enum StoryStatus {
    OPEN
    CLOSED
  }

  "Pre-moderation: OFF publishes at once; the others hold comments for review."
  enum PremodMode {
    OFF
    ALL
    LINKS
    NEW_COMMENTERS
  }

  enum CommentStatus {
    "Published, not moderated."
    NONE
    APPROVED
    REJECTED
    PREMOD
    SYSTEM_WITHHELD
  }

  enum CommentTag {
    FEATURED
    STAFF
  }

  "Why a comment is in a moderation queue."
  enum HeldReason {
    BANNED_WORD
    SUSPECT_WORD
    LINK
    NEW_COMMENTER
    PREMOD_USER
    PREMOD_ALL
    REPORTS
  }

  enum CommentSort {
    CREATED_AT_DESC
    CREATED_AT_ASC
    REPLIES_DESC
    REACTIONS_DESC
  }

  enum ModerationQueue {
    PENDING
    REPORTED
    UNMODERATED
    APPROVED
    REJECTED
  }

  enum ReportReason {
    OFFENSIVE
    ABUSIVE
    SPAM
    OTHER
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type Organization {
    name: String!
    contactEmail: String!
    url: String!
    locale: String!
  }

  type Settings {
    organization: Organization
    premod: PremodMode!
    newCommenterApprovals: Int!
    reportThreshold: Int!
    editWindowSeconds: Int!
    maxCommentLength: Int!
    signUpOpen: Boolean!
    anonymousReading: Boolean!
    liveUpdates: Boolean!
    "Moderators and admins only."
    bannedWords: [String!]
    "Moderators and admins only."
    suspectWords: [String!]
    "Community guidelines as written (Markdown; the console edits this)."
    guidelines: String!
    "The guidelines rendered to sanitized HTML (the widget shows this; it never parses Markdown)."
    guidelinesHtml: String!
    closeAfterDays: Int!
    sessionSeconds: Int!
    locale: String!
    "Text of the reaction button in the stream."
    reactionLabel: String!
    "Whether the stream shows a Featured tab."
    featuredTab: Boolean!
    "An https stylesheet the stream loads after its own; empty for none."
    customCssUrl: String!
    "SMTP server host name; empty for none. Admins only."
    smtpHost: String
    "SMTP port. Admins only."
    smtpPort: Int
    "Whether SMTP uses TLS from the start (port 465); else STARTTLS when offered. Admins only."
    smtpSecure: Boolean
    "SMTP user name; empty for none. Admins only."
    smtpUser: String
    "Whether an SMTP password is stored (the password itself is never returned). Admins only."
    smtpPasswordSet: Boolean
    "Sender address of Parley's emails; empty for no-reply@<public host>. Admins only."
    smtpFrom: String
    "Whether SMTP_URL in the server's environment is set: it overrides the smtp* settings. Admins only."
    smtpFromEnvironment: Boolean
    "Whether the install wizard has run."
    installed: Boolean!
  }

  type SsoKey {
    id: ID!
    "Shown once, when the key is created or rotated; null afterwards."
    secret: String
    createdAt: DateTime!
    "Null while active; set when rotated (the overlap end) or revoked."
    expiresAt: DateTime
    revoked: Boolean!
  }

  type Site {
    id: ID!
    name: String!
    url: String!
    allowedOrigins: [String!]!
    embedSnippet: String!
    "Admins only."
    ssoKeys: [SsoKey!]
    "Longest life (exp - iat) of an SSO token this site accepts, in seconds; null means the default, 24 hours."
    ssoTokenMaxLifetimeSeconds: Int
    createdAt: DateTime!
  }

  type User {
    id: ID!
    username: String!
    avatarUrl: String
    role: Role!
    badges: [String!]!
    createdAt: DateTime!
    "The user themself, moderators and admins only."
    email: String
    emailVerified: Boolean
    status: UserStatus
    suspendedUntil: DateTime
    "The user's comments, newest first; \`status\` narrows them (moderators: e.g. REJECTED)."
    comments(first: Int, after: String, status: CommentStatus): CommentConnection
    "Moderators only: bans, suspensions, premod and role changes, oldest first."
    history: [UserHistoryEntry!]
    "The user themself only."
    notificationSettings: NotificationSettings
    "When the user asked for their account to be deleted (the user themself and moderators)."
    deletionRequestedAt: DateTime
    "Users whose comments this user hides (the user themself only)."
    ignoredUsers: [User!]
  }

  "One change to a user's account (the console's user drawer)."
  type UserHistoryEntry {
    id: ID!
    "BAN, UNBAN, SUSPEND, PREMOD, UNPREMOD or ROLE."
    action: String!
    "The message sent to the user, or a note (a role change reads 'COMMENTER → STAFF')."
    message: String
    "Who did it; null for the system."
    actor: User
    createdAt: DateTime!
  }

  "A moderator's approve or reject of a comment."
  type ModerationDecision {
    id: ID!
    status: CommentStatus!
    "Null when the comment was deleted since."
    comment: Comment
    createdAt: DateTime!
  }

  type NotificationSettings {
    onReply: Boolean!
    onFeatured: Boolean!
    onModeration: Boolean!
  }

  type StorySettings {
    premod: PremodMode
    liveUpdates: Boolean!
    "The story's effective pre-moderation (its override, else the organization's)."
    effectivePremod: PremodMode!
  }

  type Story {
    id: ID!
    url: String!
    title: String
    status: StoryStatus!
    commentCount: Int!
    comments(orderBy: CommentSort = CREATED_AT_DESC, first: Int, after: String): CommentConnection!
    featuredComments(first: Int, after: String): CommentConnection!
    settings: StorySettings!
    site: Site!
    createdAt: DateTime!
    closedAt: DateTime
    "Moderators only: the story's queue counts (the Stories table)."
    moderationCounts: ModerationCounts
  }

  type StoryEdge {
    cursor: String!
    node: Story!
  }

  type StoryConnection {
    edges: [StoryEdge!]!
    pageInfo: PageInfo!
  }

  type Report {
    id: ID!
    reason: ReportReason!
    details: String
    reporter: User
    createdAt: DateTime!
  }

  type CommentRevision {
    bodySource: String!
    body: String!
    createdAt: DateTime!
  }

  type Comment {
    id: ID!
    "Sanitized HTML rendered by the server."
    body: String!
    author: User
    parent: Comment
    replies(first: Int, after: String): CommentConnection!
    replyCount: Int!
    status: CommentStatus!
    tags: [CommentTag!]!
    createdAt: DateTime!
    editedAt: DateTime
    editableUntil: DateTime
    reactionCount: Int!
    viewerReacted: Boolean!
    """
    True for a tombstone: a comment removed (rejected, withheld, or erased with its author's
    account) that stays in readers' threads only because it has visible replies. Readers then get
    an empty body and no author.
    """
    removed: Boolean!
    story: Story!
    "Moderators only: the Markdown the author wrote."
    bodySource: String
    "Moderators only."
    reports: [Report!]
    "Moderators only."
    heldBecause: [HeldReason!]
    "Moderators only."
    revisions: [CommentRevision!]
  }

  type CommentEdge {
    cursor: String!
    node: Comment!
  }

  type CommentConnection {
    edges: [CommentEdge!]!
    pageInfo: PageInfo!
  }

  type UserEdge {
    cursor: String!
    node: User!
  }

  type UserConnection {
    edges: [UserEdge!]!
    pageInfo: PageInfo!
  }

  type ModerationCounts {
    pending: Int!
    reported: Int!
    unmoderated: Int!
    approved: Int!
    rejected: Int!
  }

  type HourlyCount {
    hour: DateTime!
    count: Int!
  }

  type StoryCount {
    story: Story!
    count: Int!
  }

  type DashboardPeriod {
    newComments: Int!
    rejectedComments: Int!
    "rejected / (approved + rejected) decisions, 0 to 1."
    rejectionRate: Float!
    newUsers: Int!
    bans: Int!
  }

  type Dashboard {
    today: DashboardPeriod!
    allTime: DashboardPeriod!
    "Comments per hour over the last 48 hours, oldest first."
    commentsPerHour: [HourlyCount!]!
    topStoriesToday: [StoryCount!]!
  }

  type Query {
    "The signed-in user, or null."
    viewer: User
    settings: Settings!
    "Moderators and admins only."
    sites: [Site!]!
    "A story by id, or by URL (created on first use when the URL's origin is permitted)."
    story(id: ID, url: String, title: String): Story
    comment(id: ID!): Comment
    "Moderators only."
    moderationQueue(
      queue: ModerationQueue!
      siteId: ID
      storyId: ID
      first: Int
      after: String
      orderBy: CommentSort = CREATED_AT_DESC
    ): CommentConnection!
    "Moderators only."
    moderationCounts(siteId: ID, storyId: ID): ModerationCounts!
    "Moderators only: one user, with their private fields and history."
    user(id: ID!): User
    "Moderators only: the viewer's own latest decisions, newest first (at most 100)."
    myDecisions(first: Int = 20): [ModerationDecision!]!
    "Moderators only."
    users(query: String, role: Role, status: UserStatus, first: Int, after: String): UserConnection!
    "Moderators only."
    stories(
      query: String
      status: StoryStatus
      siteId: ID
      first: Int
      after: String
    ): StoryConnection!
    "Moderators only."
    dashboard: Dashboard!
    "Comment counts for many story URLs at once (count.js)."
    commentCounts(urls: [String!]!): [Int!]!
    "The sanitized HTML a comment body would get (the composer's preview); at most maxCommentLength characters."
    renderMarkdown(body: String!): String!
  }

  input OrganizationInput {
    name: String!
    contactEmail: String!
    url: String!
    locale: String
  }

  input SiteInput {
    name: String!
    url: String!
    allowedOrigins: [String!]!
  }

  input AdminInput {
    email: String!
    username: String!
    password: String!
  }

  input InstallInput {
    organization: OrganizationInput!
    site: SiteInput!
    admin: AdminInput!
  }

  type AuthPayload {
    token: String!
    user: User!
    "Remembers this device for this account (password sign-in): send it with the next signIn, and other people's failed sign-ins never slow this device down."
    deviceToken: String
  }

  input SignUpInput {
    email: String!
    username: String!
    password: String!
  }

  "Where a sign-up's code went: the same answer whether or not the address has an account (its owner is told by email instead)."
  type SignUpPayload {
    email: String!
  }

  input ConfirmSignUpInput {
    email: String!
    "The code emailed by signUp."
    code: String!
    "Another username, when the one given to signUp was taken meanwhile (USERNAME_TAKEN)."
    username: String
  }

  input SignInInput {
    email: String!
    password: String!
    "The deviceToken of an earlier sign-in of this account on this device."
    deviceToken: String
    "After CHALLENGE_REQUIRED: its extensions.challenge, and a solution: a string whose SHA-256 with it (challenge + ':' + solution) starts with extensions.bits zero bits."
    challenge: String
    solution: String
  }

  input SsoSignInInput {
    token: String!
  }

  type SignOutPayload {
    ok: Boolean!
  }

  input CreateCommentInput {
    storyId: ID!
    body: String!
    parentId: ID
    "Deduplicates retries: the same id from the same user returns the first comment."
    clientMutationId: String
  }

  type CommentPayload {
    comment: Comment
  }

  input EditCommentInput {
    commentId: ID!
    body: String!
  }

  input CommentIdInput {
    commentId: ID!
  }

  input ReportCommentInput {
    commentId: ID!
    reason: ReportReason!
    details: String
  }

  input BanUserInput {
    userId: ID!
    message: String
  }

  input UserIdInput {
    userId: ID!
  }

  input SuspendUserInput {
    userId: ID!
    until: DateTime!
    message: String
  }

  input SetUserPremodInput {
    userId: ID!
    premod: Boolean!
    "Emailed to the user when given."
    message: String
  }

  input SetUserRoleInput {
    userId: ID!
    role: Role!
    "Emailed to the user when given."
    message: String
  }

  type UserPayload {
    user: User
    "A fresh session token when the mutation ended the others (a password change); else null."
    token: String
  }

  input UpdateSettingsInput {
    organization: OrganizationInput
    premod: PremodMode
    newCommenterApprovals: Int
    reportThreshold: Int
    editWindowSeconds: Int
    maxCommentLength: Int
    signUpOpen: Boolean
    anonymousReading: Boolean
    liveUpdates: Boolean
    bannedWords: [String!]
    suspectWords: [String!]
    guidelines: String
    closeAfterDays: Int
    sessionSeconds: Int
    locale: String
    reactionLabel: String
    featuredTab: Boolean
    "Empty for none; else an https URL."
    customCssUrl: String
    "A host name or IP address; empty for none (then emails go to the outbox folder)."
    smtpHost: String
    "1 to 65535."
    smtpPort: Int
    smtpSecure: Boolean
    "Empty for none, which also removes the stored password."
    smtpUser: String
    "Write-only; empty or absent keeps the stored password."
    smtpPassword: String
    "An email address; empty for no-reply@<public host>."
    smtpFrom: String
  }

  type SettingsPayload {
    settings: Settings!
  }

  input UpdateStoryInput {
    storyId: ID!
    status: StoryStatus
    premod: PremodMode
    liveUpdates: Boolean
  }

  type StoryPayload {
    story: Story
  }

  input CreateSiteInput {
    name: String!
    url: String!
    allowedOrigins: [String!]!
  }

  input UpdateSiteInput {
    siteId: ID!
    name: String
    url: String
    allowedOrigins: [String!]
    "60 s to 30 days; null sets the default (24 hours) back."
    ssoTokenMaxLifetimeSeconds: Int
  }

  input RotateSsoKeyInput {
    siteId: ID!
    "Revoke the old key at once instead of keeping it valid for the overlap period."
    revokeOld: Boolean
  }

  type SitePayload {
    site: Site
  }

  input RevokeSsoKeyInput {
    siteId: ID!
    keyId: ID!
  }

  input InviteModeratorInput {
    email: String!
  }

  input UpdateUsernameInput {
    username: String!
  }

  input UpdateEmailInput {
    email: String!
    password: String!
  }

  input UpdatePasswordInput {
    oldPassword: String!
    newPassword: String!
  }

  input UpdateNotificationSettingsInput {
    onReply: Boolean
    onFeatured: Boolean
    onModeration: Boolean
  }

  input RequestPasswordResetInput {
    email: String!
  }

  input ResetPasswordInput {
    token: String!
    password: String!
  }

  input TokenInput {
    token: String!
  }

  type OkPayload {
    ok: Boolean!
  }

  "One comment in a data download: what the user wrote, where, and when."
  type DownloadedComment {
    id: ID!
    storyUrl: String!
    "The Markdown as written."
    body: String!
    status: CommentStatus!
    createdAt: DateTime!
    editedAt: DateTime
  }

  "Everything a user wrote, for the account page to save as a file."
  type CommentsDownloadPayload {
    username: String!
    generatedAt: DateTime!
    comments: [DownloadedComment!]!
  }

  type Mutation {
    install(input: InstallInput!): AuthPayload!
    "Starts a sign-up: emails a code to the address (or, if it has an account, a note to its owner)."
    signUp(input: SignUpInput!): SignUpPayload!
    "Finishes a sign-up with the emailed code: the account is created, its email confirmed, and signed in."
    confirmSignUp(input: ConfirmSignUpInput!): AuthPayload!
    signIn(input: SignInInput!): AuthPayload!
    "Exchanges a host's SSO token for a Parley token."
    signInWithSso(input: SsoSignInInput!): AuthPayload!
    "Ends this session on the server: its token is refused from now on."
    signOut: SignOutPayload!
    "Ends every session of the signed-in account, on every device (SSO accounts too)."
    signOutEverywhere: SignOutPayload!
    createComment(input: CreateCommentInput!): CommentPayload!
    editComment(input: EditCommentInput!): CommentPayload!
    createReaction(input: CommentIdInput!): CommentPayload!
    removeReaction(input: CommentIdInput!): CommentPayload!
    reportComment(input: ReportCommentInput!): CommentPayload!
    approveComment(input: CommentIdInput!): CommentPayload!
    rejectComment(input: CommentIdInput!): CommentPayload!
    featureComment(input: CommentIdInput!): CommentPayload!
    unfeatureComment(input: CommentIdInput!): CommentPayload!
    banUser(input: BanUserInput!): UserPayload!
    unbanUser(input: UserIdInput!): UserPayload!
    suspendUser(input: SuspendUserInput!): UserPayload!
    setUserPremod(input: SetUserPremodInput!): UserPayload!
    setUserRole(input: SetUserRoleInput!): UserPayload!
    updateSettings(input: UpdateSettingsInput!): SettingsPayload!
    updateStory(input: UpdateStoryInput!): StoryPayload!
    createSite(input: CreateSiteInput!): SitePayload!
    updateSite(input: UpdateSiteInput!): SitePayload!
    rotateSsoKey(input: RotateSsoKeyInput!): SitePayload!
    "Admins only: the key stops verifying at once (a leaked secret)."
    revokeSsoKey(input: RevokeSsoKeyInput!): SitePayload!
    "Admins only: emails the signed-in admin through the configured mail transport."
    sendTestEmail: OkPayload!
    "Admins only: emails an invitation to moderate to this address (creating a commenter account if there is none); the role is granted when the link is opened and a password chosen. Refused for SSO accounts."
    inviteModerator(input: InviteModeratorInput!): UserPayload!
    updateUsername(input: UpdateUsernameInput!): UserPayload!
    updateEmail(input: UpdateEmailInput!): UserPayload!
    updatePassword(input: UpdatePasswordInput!): UserPayload!
    updateNotificationSettings(input: UpdateNotificationSettingsInput!): UserPayload!
    uploadAvatar(file: File!): UserPayload!
    requestPasswordReset(input: RequestPasswordResetInput!): OkPayload!
    resetPassword(input: ResetPasswordInput!): AuthPayload!
    "Accepts an admin's emailed moderator invitation: sets the account's password, then grants the role."
    acceptModeratorInvite(input: ResetPasswordInput!): AuthPayload!
    confirmEmail(input: TokenInput!): UserPayload!
    "Sends the signed-in reader the link that confirms their email address again (3 an hour; the latest link is the one that works). An address already confirmed is sent nothing."
    sendEmailConfirmation: UserPayload!
    "Turns off every notification email of the account of a notification email's link (its token, once)."
    unsubscribe(input: TokenInput!): UserPayload!
    requestCommentsDownload: OkPayload!
    "Uses the emailed download link's token (once) and answers the user's comments."
    downloadCommentsData(input: TokenInput!): CommentsDownloadPayload!
    requestAccountDeletion: UserPayload!
    cancelAccountDeletion: UserPayload!
    ignoreUser(input: UserIdInput!): UserPayload!
    unignoreUser(input: UserIdInput!): UserPayload!
  }

  type ModerationQueueEvent {
    "The comment that entered or left a queue."
    comment: Comment!
    counts: ModerationCounts!
  }

  type Subscription {
    "Published comments on the story, replies included."
    commentCreated(storyId: ID!): Comment!
    "Edits, reaction counts and status changes (a rejected comment leaves the stream)."
    commentUpdated(storyId: ID!): Comment!
    "Moderators only: a comment entered or left a queue, with fresh counts."
    moderationQueueUpdated(siteId: ID): ModerationQueueEvent!
  }
`;
