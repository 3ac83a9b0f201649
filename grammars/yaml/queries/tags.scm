; Outline of YAML for graver: every mapping key, nested by containment.
(block_mapping_pair key: (_) @name) @definition.key
(flow_pair key: (_) @name) @definition.key
