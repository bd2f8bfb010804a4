// @row { version: string }
// The version of the rule the loaded extension implements (neo4j/extension, RuleVersion.java);
// asked only once extensionFunctions lists graphauthz.ruleVersion.
RETURN graphauthz.ruleVersion() AS version
