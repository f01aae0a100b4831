using System.Reflection;
using System.Reflection.Emit;

namespace Harness.Tests.Shared;

/// <summary>
/// Which folders of one assembly use which, read from the compiled types: a folder is the namespace segment under
/// the assembly's root namespace (nested types, lambdas and state machines count with their outermost type; the
/// root namespace itself is <see cref="Root"/>). A use is a base type, an interface, a field, a property, an event,
/// a signature, a local, or any type, method or field a method body names; constants are inlined by the compiler,
/// so only those escape it. Linked into each test project that keeps an assembly's folders one way.
/// </summary>
internal sealed class FolderDependencies
{
    /// <summary>The folder name of the types in the root namespace itself.</summary>
    public const string Root = "(root)";

    private const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    private readonly Assembly _assembly;
    private readonly string _rootNamespace;

    private FolderDependencies(Assembly assembly, string rootNamespace)
    {
        _assembly = assembly;
        _rootNamespace = rootNamespace;
        foreach (var type in assembly.GetTypes())
        {
            if (FolderOf(type) is not { } folder)
            {
                continue;
            }

            var used = Uses.TryGetValue(folder, out var set) ? set : Uses[folder] = [];
            foreach (var other in UsedTypes(type).Select(FolderOf).OfType<string>())
            {
                if (other != folder)
                {
                    used.Add(other);
                }
            }
        }
    }

    /// <summary>For each folder, the other folders whose types it uses.</summary>
    public Dictionary<string, HashSet<string>> Uses { get; } = new(StringComparer.Ordinal);

    /// <summary>Scans every type of <paramref name="assembly"/> under <paramref name="rootNamespace"/>; types outside it are ignored.</summary>
    public static FolderDependencies Of(Assembly assembly, string rootNamespace) => new(assembly, rootNamespace);

    /// <summary>Every pair of folders that use each other, as "A &lt;-&gt; B" (A before B in ordinal order).</summary>
    public List<string> TwoWay() => Arrows()
        .Where(a => string.CompareOrdinal(a.From, a.To) < 0 && Uses.TryGetValue(a.To, out var back) && back.Contains(a.From))
        .Select(a => $"{a.From} <-> {a.To}")
        .ToList();

    /// <summary>
    /// What breaks <paramref name="order"/>, the folders from top to bottom, where a folder may use only the folders
    /// after it: each use of a folder listed before the user (a back edge, "A -> B, which comes before it"), and each
    /// folder the order does not place, so a new folder is placed on purpose.
    /// </summary>
    public List<string> Against(params string[] order)
    {
        var rank = order.Select((folder, at) => (folder, at)).ToDictionary(p => p.folder, p => p.at, StringComparer.Ordinal);
        var unplaced = Uses.Keys.Concat(Uses.Values.SelectMany(v => v)).Distinct(StringComparer.Ordinal)
            .Where(f => !rank.ContainsKey(f))
            .Order(StringComparer.Ordinal)
            .Select(f => $"{f}: a folder the order does not place");
        var back = Arrows()
            .Where(a => rank.TryGetValue(a.From, out var from) && rank.TryGetValue(a.To, out var to) && to < from)
            .Select(a => $"{a.From} -> {a.To}, which comes before it");
        return [.. unplaced, .. back];
    }

    /// <summary>Every arrow found, for a failure's message.</summary>
    public string Describe() => string.Join(", ", Arrows().Select(a => $"{a.From} -> {a.To}"));

    private IEnumerable<(string From, string To)> Arrows() => Uses
        .SelectMany(from => from.Value.Select(to => (From: from.Key, To: to)))
        .OrderBy(a => a.From, StringComparer.Ordinal)
        .ThenBy(a => a.To, StringComparer.Ordinal);

    /// <summary>The folder of a type of the scanned assembly; null for another assembly's type or one outside the root namespace (top-level statements' Program, compiler-generated helpers).</summary>
    private string? FolderOf(Type type)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        if (type.Assembly != _assembly || type.Namespace is not { } ns)
        {
            return null;
        }

        if (ns == _rootNamespace)
        {
            return Root;
        }

        return ns.StartsWith(_rootNamespace + ".", StringComparison.Ordinal) ? ns[(_rootNamespace.Length + 1)..].Split('.')[0] : null;
    }

    private static IEnumerable<Type> UsedTypes(Type type)
    {
        var direct = new List<Type?> { type.BaseType };
        direct.AddRange(type.GetInterfaces());
        direct.AddRange(type.GetFields(All).Select(f => f.FieldType));
        direct.AddRange(type.GetProperties(All).Select(p => p.PropertyType));
        direct.AddRange(type.GetEvents(All).Select(e => e.EventHandlerType));
        foreach (var method in type.GetMethods(All).Cast<MethodBase>().Concat(type.GetConstructors(All)))
        {
            direct.AddRange(method.GetParameters().Select(p => p.ParameterType));
            if (method is MethodInfo info)
            {
                direct.Add(info.ReturnType);
            }

            direct.AddRange(BodyTypes(method));
        }

        return direct.OfType<Type>().SelectMany(Expand);
    }

    // A generic argument, an array's element or a by-ref's target is a use too: Task<GuardedRecorder>, SeriesWatch[].
    private static IEnumerable<Type> Expand(Type type)
    {
        yield return type;
        if (type.HasElementType)
        {
            foreach (var inner in Expand(type.GetElementType()!))
            {
                yield return inner;
            }
        }

        if (type.IsGenericType && !type.IsGenericTypeDefinition)
        {
            foreach (var inner in type.GetGenericArguments().SelectMany(Expand))
            {
                yield return inner;
            }
        }
    }

    /// <summary>The locals of <paramref name="method"/> and what its IL names (calls, fields, types, tokens).</summary>
    private static IEnumerable<Type> BodyTypes(MethodBase method)
    {
        var body = method.GetMethodBody();
        if (body is null)
        {
            return [];
        }

        var found = body.LocalVariables.Select(l => l.LocalType).ToList();
        var il = body.GetILAsByteArray() ?? [];
        var typeArguments = method.DeclaringType is { IsGenericType: true } declaring ? declaring.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        for (var at = 0; at < il.Length;)
        {
            short value = il[at] == 0xFE ? (short)(0xFE00 | il[at + 1]) : il[at];
            at += il[at] == 0xFE ? 2 : 1;
            var code = OpCodesByValue[value];
            if (code.OperandType is OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok)
            {
                found.AddRange(Resolve(method.Module, BitConverter.ToInt32(il, at), typeArguments, methodArguments));
            }

            at += code.OperandType switch
            {
                OperandType.InlineNone => 0,
                OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
                OperandType.InlineVar => 2,
                OperandType.InlineI8 or OperandType.InlineR => 8,
                OperandType.InlineSwitch => 4 + (4 * BitConverter.ToInt32(il, at)),
                _ => 4,
            };
        }

        return found;
    }

    private static IEnumerable<Type> Resolve(Module module, int token, Type[]? typeArguments, Type[]? methodArguments)
    {
        MemberInfo? member;
        try
        {
            member = module.ResolveMember(token, typeArguments, methodArguments);
        }
        catch (ArgumentException)
        {
            // A token of another generic context: its declaring type is named elsewhere in the same body.
            yield break;
        }

        switch (member)
        {
            case Type type:
                yield return type;
                break;
            case FieldInfo field:
                yield return field.DeclaringType!;
                yield return field.FieldType;
                break;
            case MethodBase called:
                yield return called.DeclaringType!;
                foreach (var parameter in called.GetParameters())
                {
                    yield return parameter.ParameterType;
                }

                if (called is MethodInfo info)
                {
                    yield return info.ReturnType;
                    if (info.IsGenericMethod)
                    {
                        foreach (var argument in info.GetGenericArguments())
                        {
                            yield return argument;
                        }
                    }
                }

                break;
        }
    }
}
