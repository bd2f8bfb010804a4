// Condition sets and set rules (docs/behaviour.md section 17): one key per environment each, found by id too.
CREATE CONSTRAINT condition_set_key IF NOT EXISTS FOR (s:ConditionSet) REQUIRE (s.env, s.key) IS UNIQUE;
CREATE CONSTRAINT set_rule_key IF NOT EXISTS FOR (r:SetRule) REQUIRE (r.env, r.key) IS UNIQUE;
CREATE INDEX condition_set_id IF NOT EXISTS FOR (s:ConditionSet) ON (s.id);
