import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';

export enum CrawlLoginKindEnum {
  FORM = 'FORM',
  COOKIE = 'COOKIE',
  BASIC = 'BASIC',
  BEARER = 'BEARER',
  HEADER = 'HEADER',
}
registerEnumType(CrawlLoginKindEnum, {
  name: 'CrawlLoginKind',
  description:
    'How a login crawl signs in: FORM (posts a login form before the crawl and keeps its session cookie), COOKIE ' +
    '(sends the given cookies), BASIC (HTTP basic auth), BEARER (Authorization: Bearer), HEADER (one custom header).',
});

@ObjectType('CrawlLoginBinding', {
  description:
    'Where a crawl login was set (or confirmed) for: the start URL and crawl scope it is sealed with. The login is ' +
    'sent to requests inside it only (its host, www-insensitive, same port and scheme rule; its subdomains only when ' +
    'includeSubdomains; never to a URL an exclude pattern matches), whatever the project says now.',
})
export class CrawlLoginBindingType {
  @Field(() => String, { description: 'The project’s start URL when the login was set or confirmed.' })
  startUrl!: string;
  @Field(() => Boolean) includeSubdomains!: boolean;
  @Field(() => [String]) includePatterns!: string[];
  @Field(() => [String]) excludePatterns!: string[];
}

@ObjectType('CrawlLogin', {
  description:
    "A project's crawl login: only facts that are not secret. The username, password, token, cookie values and " +
    'header value are write-only: stored encrypted, sent only to the project’s own hosts, never returned.',
})
export class CrawlLoginType {
  @Field(() => CrawlLoginKindEnum) kind!: CrawlLoginKindEnum;
  @Field(() => String, { nullable: true, description: 'FORM: the login page.' }) loginUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'FORM: the name of the username field.' })
  usernameField!: string | null;
  @Field(() => String, { nullable: true, description: 'FORM: the name of the password field.' })
  passwordField!: string | null;
  @Field(() => [String], { description: 'FORM: the names of the extra fields posted (their values are not shown).' })
  extraFieldNames!: string[];
  @Field(() => String, { nullable: true, description: 'HEADER: the header name (its value is not shown).' })
  headerName!: string | null;
  @Field(() => [String], { description: 'COOKIE: the cookie names (their values are not shown).' })
  cookieNames!: string[];
  @Field(() => CrawlLoginBindingType, { description: 'Where the login was set for: it is sent nowhere else.' })
  boundTo!: CrawlLoginBindingType;
  @Field(() => String, {
    nullable: true,
    description:
      "Why the login is suspended, or null when audits use it: the project's host changed, subdomains were turned " +
      'on or the scope was widened since it was set. Its audits fail with this reason until an owner or admin ' +
      'confirms it (confirmCrawlLogin), sets it again or clears it.',
  })
  suspendedReason!: string | null;
  @Field(() => Date) updatedAt!: Date;
}

@InputType('CrawlLoginFieldInput', { description: 'An extra form field posted with a FORM login.' })
export class CrawlLoginFieldInput {
  @Field(() => String) name!: string;
  @Field(() => String) value!: string;
}

@InputType('CrawlLoginInput', {
  description:
    'A crawl login: the fields of its kind, the others absent. A write-only field (username, password, token, ' +
    'cookies, header value, extra fields) left empty keeps its stored value when the kind is unchanged.',
})
export class CrawlLoginInput {
  @Field(() => CrawlLoginKindEnum) kind!: CrawlLoginKindEnum;
  @Field(() => String, { nullable: true, description: "FORM: the login page URL, on the project's site." })
  loginUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'FORM: the name of the username field.' })
  usernameField?: string | null;
  @Field(() => String, { nullable: true, description: 'FORM: the name of the password field.' })
  passwordField?: string | null;
  @Field(() => String, { nullable: true, description: 'FORM and BASIC (write-only).' }) username?: string | null;
  @Field(() => String, { nullable: true, description: 'FORM and BASIC (write-only).' }) password?: string | null;
  @Field(() => [CrawlLoginFieldInput], { nullable: true, description: 'FORM: more fields to post (write-only).' })
  extraFields?: CrawlLoginFieldInput[] | null;
  @Field(() => String, { nullable: true, description: 'COOKIE: `name=value; name2=value2` (write-only).' })
  cookies?: string | null;
  @Field(() => String, { nullable: true, description: 'BEARER: the token (write-only).' }) token?: string | null;
  @Field(() => String, { nullable: true, description: 'HEADER: the header name, e.g. X-Preview-Token.' })
  headerName?: string | null;
  @Field(() => String, { nullable: true, description: 'HEADER: the header value (write-only).' })
  headerValue?: string | null;
}
