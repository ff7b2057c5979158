/**
 * Compare a TypeScript type with a JSON Schema, structurally: the same
 * property names, the same optionality, the same primitive kinds, the same
 * string-literal sets, recursively. Uses the TypeScript compiler on the
 * real sources, so an optional field added to seam/messages.ts (which no
 * sample needs to mention) is still caught.
 */
import ts from 'typescript';

type Schema = Record<string, unknown> | boolean;
type SchemaObject = Record<string, unknown>;

export class ShapeComparer {
  readonly problems: string[] = [];
  constructor(
    private readonly checker: ts.TypeChecker,
    /** Schema documents by $id (file name). */
    private readonly schemas: Map<string, SchemaObject>,
  ) {}

  private resolve(schema: Schema, base: string): { schema: SchemaObject; base: string } {
    let s = schema as SchemaObject;
    while (typeof s.$ref === 'string') {
      const [file, pointer = ''] = (s.$ref as string).split('#');
      base = file || base;
      let target: unknown = this.schemas.get(base);
      for (const seg of pointer.split('/').filter(Boolean)) target = (target as SchemaObject)[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (target === undefined) throw new Error(`unresolvable $ref ${String(s.$ref)} in ${base}`);
      s = target as SchemaObject;
    }
    return { schema: s, base };
  }

  private kinds(schema: SchemaObject): Set<string> {
    const t = schema.type;
    const list = Array.isArray(t) ? t : t === undefined ? [] : [t];
    return new Set(list.map((k) => (k === 'integer' ? 'number' : String(k))));
  }

  private literalSet(schema: SchemaObject): string[] | undefined {
    if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map(String).sort();
    if (schema.const !== undefined) return [String(schema.const)];
    return undefined;
  }

  private problem(at: string, text: string) {
    this.problems.push(`${at}: ${text}`);
  }

  private primitiveKind(t: ts.Type): string | undefined {
    const f = t.flags;
    if (f & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return 'boolean';
    if (f & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return 'string';
    if (f & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return 'number';
    if (this.checker.isArrayType(t)) return 'array';
    if (f & ts.TypeFlags.Object) return 'object';
    return undefined;
  }

  compare(type: ts.Type, schemaIn: Schema, baseIn: string, at: string, skip: string[] = []): void {
    const { schema, base } = this.resolve(schemaIn, baseIn);
    const t = this.checker.getNonNullableType(type);
    const members = t.isUnion() ? t.types : [t];

    if (members.every((m) => m.isStringLiteral())) {
      const tsSet = members.map((m) => (m as ts.StringLiteralType).value).sort();
      const schemaSet = this.literalSet(schema);
      if (JSON.stringify(tsSet) !== JSON.stringify(schemaSet)) this.problem(at, `TS allows ${JSON.stringify(tsSet)}, the schema ${JSON.stringify(schemaSet ?? 'any string')}`);
      return;
    }
    const objects = members.filter((m) => this.primitiveKind(m) === 'object');
    if (objects.length === members.length) return this.compareObject(objects, schema, base, at, skip);

    const tsKinds = new Set(members.map((m) => this.primitiveKind(m) ?? `unsupported(${this.checker.typeToString(m)})`));
    const schemaKinds = this.kinds(schema);
    const a = [...tsKinds].sort().join('|');
    const b = [...schemaKinds].sort().join('|');
    if (a !== b) return this.problem(at, `TS type is ${a}, the schema's is ${b || '(none)'}`);
    for (const m of members) {
      if (this.checker.isArrayType(m)) {
        const element = this.checker.getTypeArguments(m as ts.TypeReference)[0];
        this.compare(element, schema.items as Schema, base, `${at}[]`);
      }
    }
  }

  private compareObject(variants: readonly ts.Type[], schema: SchemaObject, base: string, at: string, skip: string[]): void {
    if (schema.type !== 'object') return this.problem(at, `TS type is an object, the schema's type is ${JSON.stringify(schema.type)}`);
    if (schema.additionalProperties !== false) this.problem(at, 'the schema allows additional properties');
    const props = new Map<string, { types: ts.Type[]; requiredIn: number }>();
    for (const v of variants) {
      for (const p of this.checker.getPropertiesOfType(v)) {
        const entry = props.get(p.name) ?? { types: [], requiredIn: 0 };
        entry.types.push(this.checker.getTypeOfSymbol(p));
        if (!(p.flags & ts.SymbolFlags.Optional)) entry.requiredIn += 1;
        props.set(p.name, entry);
      }
    }
    for (const name of skip) if (props.has(name)) this.problem(at, `the TS type has "${name}", which collides with the message envelope`);
    const schemaProps = (schema.properties ?? {}) as Record<string, Schema>;
    const schemaNames = Object.keys(schemaProps).filter((n) => !skip.includes(n));
    const required = new Set(((schema.required ?? []) as string[]).filter((n) => !skip.includes(n)));
    for (const [name, { types, requiredIn }] of props) {
      if (!(name in schemaProps)) {
        this.problem(at, `TS has property "${name}", the schema does not`);
        continue;
      }
      const tsRequired = requiredIn === variants.length;
      if (tsRequired !== required.has(name)) this.problem(`${at}.${name}`, `TS says ${tsRequired ? 'required' : 'optional'}, the schema ${required.has(name) ? 'required' : 'optional'}`);
      if (types.every((ty) => this.checker.getNonNullableType(ty).isStringLiteral())) {
        // one literal per variant (a discriminant): compare the union of them
        const merged = types.map((ty) => (this.checker.getNonNullableType(ty) as ts.StringLiteralType).value);
        const schemaSet = this.literalSet(this.resolve(schemaProps[name], base).schema);
        if (JSON.stringify([...new Set(merged)].sort()) !== JSON.stringify(schemaSet)) this.problem(`${at}.${name}`, `TS allows ${JSON.stringify(merged)}, the schema ${JSON.stringify(schemaSet)}`);
      } else {
        for (const ty of types) this.compare(ty, schemaProps[name], base, `${at}.${name}`);
      }
    }
    for (const name of schemaNames) if (!props.has(name)) this.problem(at, `the schema has property "${name}", TS does not`);
  }
}

/** A type checker over protocol/messages.ts (and through it the seam), and the types of its Wire table. */
export function loadWireTypes(messagesFile: string) {
  const program = ts.createProgram([messagesFile], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(messagesFile);
  if (!source) throw new Error(`cannot load ${messagesFile}`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const exported = (name: string) => {
    const sym = exports.find((e) => e.name === name);
    if (!sym) throw new Error(`${messagesFile} exports no ${name}`);
    return checker.getDeclaredTypeOfSymbol(sym);
  };
  const wire = exported('Wire');
  const member = (t: ts.Type, name: string) => checker.getTypeOfSymbol(t.getProperty(name)!);
  return {
    checker,
    commands: checker.getPropertiesOfType(wire).map((p) => p.name),
    request: (cmd: string) => member(member(wire, cmd), 'request'),
    response: (cmd: string) => member(member(wire, cmd), 'response'),
    exported,
  };
}
