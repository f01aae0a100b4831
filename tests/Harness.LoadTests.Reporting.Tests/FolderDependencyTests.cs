using System.Reflection;
using System.Reflection.Emit;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Reporting's folders (one namespace each) depend one way: Formats renders what Analysis computed, and both write
/// figures with Text. Read from the compiled types, their signatures and the members their method bodies use.
/// </summary>
public sealed class FolderDependencyTests
{
    private const string Root = "Harness.LoadTests.Reporting.";

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    [Fact]
    public void No_two_folders_use_each_other()
    {
        var edges = Edges(typeof(RunAnalysis).Assembly);

        var both = edges.Where(e => string.CompareOrdinal(e.From, e.To) < 0 && edges.Contains((e.To, e.From))).ToList();

        Assert.True(both.Count == 0, $"Folders that use each other: {string.Join(", ", both.Select(e => $"{e.From} <-> {e.To}"))}. Arrows found: {Describe(edges)}.");
        Assert.Contains(("Formats", "Analysis"), edges);
        Assert.DoesNotContain(edges, e => e.From == "Analysis" && e.To == "Formats");
    }

    private static string Describe(HashSet<(string From, string To)> edges) => string.Join(", ", edges.Order().Select(e => $"{e.From} -> {e.To}"));

    private static HashSet<(string From, string To)> Edges(Assembly assembly)
    {
        var edges = new HashSet<(string, string)>();
        foreach (var type in assembly.GetTypes())
        {
            if (FolderOf(type) is not { } from)
            {
                continue;
            }

            foreach (var used in Used(type))
            {
                if (FolderOf(used) is { } to && to != from)
                {
                    edges.Add((from, to));
                }
            }
        }

        return edges;
    }

    /// <summary>The folder of a type of this assembly, by its outermost declaring type's namespace (lambdas and state machines are nested types).</summary>
    private static string? FolderOf(Type type)
    {
        while (type.DeclaringType is { } outer)
        {
            type = outer;
        }

        return type.Namespace is { } ns && ns.StartsWith(Root, StringComparison.Ordinal) ? ns[Root.Length..].Split('.')[0] : null;
    }

    private static IEnumerable<Type> Used(Type type)
    {
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        IEnumerable<Type> direct =
        [
            .. type.BaseType is { } b ? [b] : Array.Empty<Type>(),
            .. type.GetInterfaces(),
            .. type.GetFields(all).Select(f => f.FieldType),
            .. type.GetProperties(all).Select(p => p.PropertyType),
            .. type.GetMethods(all).SelectMany(m => m.GetParameters().Select(p => p.ParameterType).Append(m.ReturnType)),
            .. type.GetConstructors(all).SelectMany(c => c.GetParameters().Select(p => p.ParameterType)),
            .. type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)).SelectMany(BodyTypes),
        ];
        return direct.SelectMany(Expand);
    }

    private static IEnumerable<Type> Expand(Type type)
    {
        var element = type.HasElementType ? type.GetElementType()! : type;
        yield return element;
        if (element.IsGenericType)
        {
            foreach (var argument in element.GetGenericArguments().Where(a => !a.IsGenericParameter).SelectMany(Expand))
            {
                yield return argument;
            }
        }
    }

    /// <summary>The types whose members a method body calls, reads or creates: the tokens of its IL.</summary>
    private static IEnumerable<Type> BodyTypes(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray() ?? [];
        var found = new List<Type>();
        for (var i = 0; i < il.Length;)
        {
            var value = il[i] == 0xFE ? (short)(0xFE00 | il[i + 1]) : il[i];
            i += il[i] == 0xFE ? 2 : 1;
            var opCode = OpCodesByValue[value];
            if (opCode.OperandType is OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok)
            {
                var member = Resolve(method, BitConverter.ToInt32(il, i));
                if (member is Type t)
                {
                    found.Add(t);
                }
                else if (member?.DeclaringType is { } declaring)
                {
                    found.Add(declaring);
                }
            }

            i += OperandSize(opCode, il, i);
        }

        return found;
    }

    private static MemberInfo? Resolve(MethodBase method, int token)
    {
        try
        {
            return method.Module.ResolveMember(token,
                method.DeclaringType is { IsGenericType: true } d ? d.GetGenericArguments() : null,
                method.IsGenericMethod ? method.GetGenericArguments() : null);
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static int OperandSize(OpCode opCode, byte[] il, int at) => opCode.OperandType switch
    {
        OperandType.InlineNone => 0,
        OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
        OperandType.InlineVar => 2,
        OperandType.InlineI8 or OperandType.InlineR => 8,
        OperandType.InlineSwitch => 4 + (BitConverter.ToInt32(il, at) * 4),
        _ => 4,
    };
}
