/**
 * Which names a rename may give, per language: the identifier syntax and the
 * reserved words. Private to `src/structural/`.
 *
 * @module
 */

const ECMA_IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
const WORD_IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

const ECMA_RESERVED = words(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await",
);

/** Reserved words of the languages whose names are letters, digits and `_` (no `$`). */
const RESERVED: Record<string, ReadonlySet<string>> = {
  python: words(
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield",
  ),
  go: words(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
  ),
  rust: words(
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while abstract become box do final macro override priv typeof unsized virtual yield try",
  ),
  java: words(
    "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var record yield",
  ),
  c_sharp: words(
    "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while",
  ),
  c: words(
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary",
  ),
  cpp: words(
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary alignas alignof and asm bool catch class constexpr const_cast decltype delete dynamic_cast explicit export false friend mutable namespace new noexcept not nullptr operator or private protected public reinterpret_cast static_assert static_cast template this thread_local throw true try typeid typename using virtual wchar_t xor",
  ),
  kotlin: words(
    "as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while",
  ),
  ruby: words(
    "BEGIN END alias and begin break case class def defined? do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield",
  ),
  php: words(
    "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum eval exit extends final finally fn for foreach function global goto if implements include instanceof insteadof interface isset list match namespace new or print private protected public readonly require return static switch throw trait try unset use var while xor yield",
  ),
};

/**
 * Whether `name` is an identifier of the language that is not a reserved word (ECMAScript rules for the
 * TypeScript family and any language without its own list).
 *
 * @param language Language id.
 * @param name The candidate name.
 * @returns True when a declaration may take it.
 */
export function isValidName(language: string, name: string): boolean {
  const reserved = RESERVED[language];
  if (reserved) return WORD_IDENTIFIER.test(name) && !reserved.has(name);
  return ECMA_IDENTIFIER.test(name) && !ECMA_RESERVED.has(name);
}
