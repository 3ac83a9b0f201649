; Outline of JSON for graver: every object key, nested by containment.
(pair key: (string (string_content) @name)) @definition.key
