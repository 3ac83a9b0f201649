; Outline of CSS for graver: rule sets named by their selectors, at-rules.
(rule_set (selectors) @name) @definition.rule
(media_statement) @definition.rule
(supports_statement) @definition.rule
(keyframes_statement (keyframes_name) @name) @definition.rule
(keyframe_block_list (keyframe_block . (_) @name) @definition.rule)
