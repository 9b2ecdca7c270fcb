/**
 * The messages of gnostic's `openapi.v3` package (github.com/google/gnostic openapiv3/OpenAPIv3.proto): an OpenAPI 3.0
 * document as protobuf, which kube-apiserver serves at /openapi/v3/<group-version> and client-go decodes into
 * `openapi_v3.Document`. Message names, field names and numbers are gnostic's; `Any.value` (a google.protobuf.Any gnostic
 * never fills) is left out, so a decoder sees the same bytes.
 */
export const gnosticV3Proto = `
syntax = "proto3";
package openapi.v3;

message AdditionalPropertiesItem { oneof oneof { SchemaOrReference schema_or_reference = 1; bool boolean = 2; } }
message Any { string yaml = 2; }
message AnyOrExpression { oneof oneof { Any any = 1; Expression expression = 2; } }
message Callback { repeated NamedPathItem path = 1; repeated NamedAny specification_extension = 2; }
message CallbackOrReference { oneof oneof { Callback callback = 1; Reference reference = 2; } }
message CallbacksOrReferences { repeated NamedCallbackOrReference additional_properties = 1; }
message Components {
  SchemasOrReferences schemas = 1; ResponsesOrReferences responses = 2; ParametersOrReferences parameters = 3;
  ExamplesOrReferences examples = 4; RequestBodiesOrReferences request_bodies = 5; HeadersOrReferences headers = 6;
  SecuritySchemesOrReferences security_schemes = 7; LinksOrReferences links = 8; CallbacksOrReferences callbacks = 9;
  repeated NamedAny specification_extension = 10;
}
message Contact { string name = 1; string url = 2; string email = 3; repeated NamedAny specification_extension = 4; }
message DefaultType { oneof oneof { double number = 1; bool boolean = 2; string string = 3; } }
message Discriminator { string property_name = 1; Strings mapping = 2; repeated NamedAny specification_extension = 3; }
message Document {
  string openapi = 1; Info info = 2; repeated Server servers = 3; Paths paths = 4; Components components = 5;
  repeated SecurityRequirement security = 6; repeated Tag tags = 7; ExternalDocs external_docs = 8;
  repeated NamedAny specification_extension = 9;
}
message Encoding {
  string content_type = 1; HeadersOrReferences headers = 2; string style = 3; bool explode = 4; bool allow_reserved = 5;
  repeated NamedAny specification_extension = 6;
}
message Encodings { repeated NamedEncoding additional_properties = 1; }
message Example {
  string summary = 1; string description = 2; Any value = 3; string external_value = 4; repeated NamedAny specification_extension = 5;
}
message ExampleOrReference { oneof oneof { Example example = 1; Reference reference = 2; } }
message ExamplesOrReferences { repeated NamedExampleOrReference additional_properties = 1; }
message Expression { repeated NamedAny additional_properties = 1; }
message ExternalDocs { string description = 1; string url = 2; repeated NamedAny specification_extension = 3; }
message Header {
  string description = 1; bool required = 2; bool deprecated = 3; bool allow_empty_value = 4; string style = 5; bool explode = 6;
  bool allow_reserved = 7; SchemaOrReference schema = 8; Any example = 9; ExamplesOrReferences examples = 10;
  MediaTypes content = 11; repeated NamedAny specification_extension = 12;
}
message HeaderOrReference { oneof oneof { Header header = 1; Reference reference = 2; } }
message HeadersOrReferences { repeated NamedHeaderOrReference additional_properties = 1; }
message Info {
  string title = 1; string description = 2; string terms_of_service = 3; Contact contact = 4; License license = 5;
  string version = 6; repeated NamedAny specification_extension = 7; string summary = 8;
}
message ItemsItem { repeated SchemaOrReference schema_or_reference = 1; }
message License { string name = 1; string url = 2; repeated NamedAny specification_extension = 3; }
message Link {
  string operation_ref = 1; string operation_id = 2; AnyOrExpression parameters = 3; AnyOrExpression request_body = 4;
  string description = 5; Server server = 6; repeated NamedAny specification_extension = 7;
}
message LinkOrReference { oneof oneof { Link link = 1; Reference reference = 2; } }
message LinksOrReferences { repeated NamedLinkOrReference additional_properties = 1; }
message MediaType {
  SchemaOrReference schema = 1; Any example = 2; ExamplesOrReferences examples = 3; Encodings encoding = 4;
  repeated NamedAny specification_extension = 5;
}
message MediaTypes { repeated NamedMediaType additional_properties = 1; }
message NamedAny { string name = 1; Any value = 2; }
message NamedCallbackOrReference { string name = 1; CallbackOrReference value = 2; }
message NamedEncoding { string name = 1; Encoding value = 2; }
message NamedExampleOrReference { string name = 1; ExampleOrReference value = 2; }
message NamedHeaderOrReference { string name = 1; HeaderOrReference value = 2; }
message NamedLinkOrReference { string name = 1; LinkOrReference value = 2; }
message NamedMediaType { string name = 1; MediaType value = 2; }
message NamedParameterOrReference { string name = 1; ParameterOrReference value = 2; }
message NamedPathItem { string name = 1; PathItem value = 2; }
message NamedRequestBodyOrReference { string name = 1; RequestBodyOrReference value = 2; }
message NamedResponseOrReference { string name = 1; ResponseOrReference value = 2; }
message NamedSchemaOrReference { string name = 1; SchemaOrReference value = 2; }
message NamedSecuritySchemeOrReference { string name = 1; SecuritySchemeOrReference value = 2; }
message NamedServerVariable { string name = 1; ServerVariable value = 2; }
message NamedString { string name = 1; string value = 2; }
message NamedStringArray { string name = 1; StringArray value = 2; }
message OauthFlow {
  string authorization_url = 1; string token_url = 2; string refresh_url = 3; Strings scopes = 4;
  repeated NamedAny specification_extension = 5;
}
message OauthFlows {
  OauthFlow implicit = 1; OauthFlow password = 2; OauthFlow client_credentials = 3; OauthFlow authorization_code = 4;
  repeated NamedAny specification_extension = 5;
}
message Operation {
  repeated string tags = 1; string summary = 2; string description = 3; ExternalDocs external_docs = 4; string operation_id = 5;
  repeated ParameterOrReference parameters = 6; RequestBodyOrReference request_body = 7; Responses responses = 8;
  CallbacksOrReferences callbacks = 9; bool deprecated = 10; repeated SecurityRequirement security = 11;
  repeated Server servers = 12; repeated NamedAny specification_extension = 13;
}
message Parameter {
  string name = 1; string in = 2; string description = 3; bool required = 4; bool deprecated = 5; bool allow_empty_value = 6;
  string style = 7; bool explode = 8; bool allow_reserved = 9; SchemaOrReference schema = 10; Any example = 11;
  ExamplesOrReferences examples = 12; MediaTypes content = 13; repeated NamedAny specification_extension = 14;
}
message ParameterOrReference { oneof oneof { Parameter parameter = 1; Reference reference = 2; } }
message ParametersOrReferences { repeated NamedParameterOrReference additional_properties = 1; }
message PathItem {
  string _ref = 1; string summary = 2; string description = 3; Operation get = 4; Operation put = 5; Operation post = 6;
  Operation delete = 7; Operation options = 8; Operation head = 9; Operation patch = 10; Operation trace = 11;
  repeated Server servers = 12; repeated ParameterOrReference parameters = 13; repeated NamedAny specification_extension = 14;
}
message Paths { repeated NamedPathItem path = 1; repeated NamedAny specification_extension = 2; }
message Properties { repeated NamedSchemaOrReference additional_properties = 1; }
message Reference { string _ref = 1; }
message RequestBodiesOrReferences { repeated NamedRequestBodyOrReference additional_properties = 1; }
message RequestBody { string description = 1; MediaTypes content = 2; bool required = 3; repeated NamedAny specification_extension = 4; }
message RequestBodyOrReference { oneof oneof { RequestBody request_body = 1; Reference reference = 2; } }
message Response {
  string description = 1; HeadersOrReferences headers = 2; MediaTypes content = 3; LinksOrReferences links = 4;
  repeated NamedAny specification_extension = 5;
}
message ResponseOrReference { oneof oneof { Response response = 1; Reference reference = 2; } }
message Responses {
  ResponseOrReference default = 1; repeated NamedResponseOrReference response_or_reference = 2;
  repeated NamedAny specification_extension = 3;
}
message ResponsesOrReferences { repeated NamedResponseOrReference additional_properties = 1; }
message Schema {
  bool nullable = 1; Discriminator discriminator = 2; bool read_only = 3; bool write_only = 4; Xml xml = 5;
  ExternalDocs external_docs = 6; Any example = 7; bool deprecated = 8; string title = 9; double multiple_of = 10;
  double maximum = 11; bool exclusive_maximum = 12; double minimum = 13; bool exclusive_minimum = 14; int64 max_length = 15;
  int64 min_length = 16; string pattern = 17; int64 max_items = 18; int64 min_items = 19; bool unique_items = 20;
  int64 max_properties = 21; int64 min_properties = 22; repeated string required = 23; repeated Any enum = 24; string type = 25;
  repeated SchemaOrReference all_of = 26; repeated SchemaOrReference one_of = 27; repeated SchemaOrReference any_of = 28;
  Schema not = 29; ItemsItem items = 30; Properties properties = 31; AdditionalPropertiesItem additional_properties = 32;
  DefaultType default = 33; string description = 34; string format = 35; repeated NamedAny specification_extension = 36;
}
message SchemaOrReference { oneof oneof { Schema schema = 1; Reference reference = 2; } }
message SchemasOrReferences { repeated NamedSchemaOrReference additional_properties = 1; }
message SecurityRequirement { repeated NamedStringArray additional_properties = 1; }
message SecurityScheme {
  string type = 1; string description = 2; string name = 3; string in = 4; string scheme = 5; string bearer_format = 6;
  OauthFlows flows = 7; string open_id_connect_url = 8; repeated NamedAny specification_extension = 9;
}
message SecuritySchemeOrReference { oneof oneof { SecurityScheme security_scheme = 1; Reference reference = 2; } }
message SecuritySchemesOrReferences { repeated NamedSecuritySchemeOrReference additional_properties = 1; }
message Server { string url = 1; string description = 2; ServerVariables variables = 3; repeated NamedAny specification_extension = 4; }
message ServerVariable {
  repeated string enum = 1; string default = 2; string description = 3; repeated NamedAny specification_extension = 4;
}
message ServerVariables { repeated NamedServerVariable additional_properties = 1; }
message StringArray { repeated string value = 1; }
message Strings { repeated NamedString additional_properties = 1; }
message Tag { string name = 1; string description = 2; ExternalDocs external_docs = 3; repeated NamedAny specification_extension = 4; }
message Xml {
  string name = 1; string namespace = 2; string prefix = 3; bool attribute = 4; bool wrapped = 5;
  repeated NamedAny specification_extension = 6;
}
`;
