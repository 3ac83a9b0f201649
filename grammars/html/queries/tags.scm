; Outline of HTML for graver: elements named by their tag; an id attribute is an alias.
(element
  (start_tag
    (tag_name) @name
    (attribute
      (attribute_name) @_attr
      (quoted_attribute_value (attribute_value) @alias))
    (#eq? @_attr "id"))) @definition.element
(element (start_tag (tag_name) @name)) @definition.element
(element (self_closing_tag (tag_name) @name)) @definition.element
(script_element (start_tag (tag_name) @name)) @definition.element
(style_element (start_tag (tag_name) @name)) @definition.element
