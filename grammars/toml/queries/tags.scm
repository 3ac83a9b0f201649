; Outline of TOML for graver: tables, arrays of tables and their keys.
(table [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
(table_array_element [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
(pair [(bare_key) (dotted_key) (quoted_key)] @name) @definition.key
