; Definitions in Kotlin for graver's outline and symbol tools (the grammar package
; ships no tags query): classes, interfaces, objects, companion objects,
; functions and methods, constructors, properties, type aliases, enum entries.

(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(companion_object name: (identifier) @name) @definition.class
(companion_object) @definition.class
(class_body (function_declaration name: (identifier) @name) @definition.method)
(function_declaration name: (identifier) @name) @definition.function
(secondary_constructor) @definition.constructor
(class_body
  (property_declaration
    [(variable_declaration (identifier) @name)
     (multi_variable_declaration (variable_declaration (identifier) @name))]) @definition.property)
(source_file
  (property_declaration
    [(variable_declaration (identifier) @name)
     (multi_variable_declaration (variable_declaration (identifier) @name))]) @definition.property)
(type_alias type: (identifier) @name) @definition.type
(type_alias (identifier) @name) @definition.type
(enum_entry (identifier) @name) @definition.enum_member
