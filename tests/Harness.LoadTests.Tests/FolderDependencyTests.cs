using System.Reflection;
using System.Reflection.Emit;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>
/// The runner's folders (namespaces under Harness.LoadTests) depend one way: commands down to running, running down
/// to targets, scenarios and recording. A two-way pair is a cycle a reader cannot follow, so it fails here. Below the
/// runner, its call clients (Harness.LoadTests.Clients) are a project of their own that knows nothing of a run.
/// The scan reads the compiled assembly: base types, interfaces, fields, properties, signatures, locals and every
/// type, method or field a method body names; constants are inlined by the compiler, so only those escape it.
/// </summary>
public sealed class FolderDependencyTests
{
    // Scanned once for both tests: reflecting over every body of the assembly is most of their time.
    private static readonly Lazy<Dictionary<string, HashSet<string>>> Uses = new(() => FolderUses(typeof(RunOrchestrator).Assembly));

    [Fact]
    public void NoTwoFoldersOfTheRunner_UseEachOtherBothWays()
    {
        var uses = Uses.Value;

        var twoWay = uses
            .SelectMany(from => from.Value.Select(to => (From: from.Key, To: to)))
            .Where(pair => string.CompareOrdinal(pair.From, pair.To) < 0 && uses.TryGetValue(pair.To, out var back) && back.Contains(pair.From))
            .Select(pair => $"{pair.From} <-> {pair.To}")
            .ToList();

        Assert.Empty(twoWay);
    }

    [Fact]
    public void TheScan_SeesAUseInAMethodBody()
    {
        // The commands name Live/ only inside a lambda (RunCommand.Sinks starts the page); a scan blind to bodies misses it.
        var uses = Uses.Value;

        Assert.Contains("Live", uses["Commands"]);
        Assert.Contains("Running", uses["Commands"]);
        Assert.DoesNotContain("Commands", uses["Running"]);
    }

    [Fact]
    public void TheClients_UseNoProjectOfTheRunner_AndTheRunnerUsesThem()
    {
        // The runner reaches its clients through ICallClient, CallResolver and HarnessClients; a client that named a
        // Running, Scenarios or Recording type would need the runner (or its engine, hosting, recording, reporting) below it.
        var clients = typeof(ICallClient).Assembly;
        var runner = typeof(RunOrchestrator).Assembly;

        var runnerProjects = clients.GetReferencedAssemblies()
            .Select(a => a.Name!)
            .Where(name => name == runner.GetName().Name || name.StartsWith("Harness.LoadTests.", StringComparison.Ordinal))
            .ToList();

        Assert.Empty(runnerProjects);
        Assert.Contains(clients.GetName().Name, runner.GetReferencedAssemblies().Select(a => a.Name));
    }

    [Fact]
    public void Diagnostics_IsUsedByTheRun_AndUsesNeitherTheRunNorTheCommands()
    {
        // Diagnostics/ (the EventPipe session on a target's runtime) sits below Running/ and Targets/, as Calls/ does.
        var uses = Uses.Value;

        Assert.Contains("Diagnostics", uses["Running"]);
        Assert.Contains("Diagnostics", uses["Targets"]);
        Assert.DoesNotContain("Commands", uses["Diagnostics"]);
        Assert.DoesNotContain("Running", uses["Diagnostics"]);
        Assert.DoesNotContain("Targets", uses["Diagnostics"]);
    }

    /// <summary>For each folder, the other folders whose types it uses.</summary>
    private static Dictionary<string, HashSet<string>> FolderUses(Assembly assembly)
    {
        var uses = new Dictionary<string, HashSet<string>>();
        foreach (var type in assembly.GetTypes())
        {
            if (FolderOf(type, assembly) is not { } folder)
            {
                continue;
            }

            var used = uses.TryGetValue(folder, out var set) ? set : uses[folder] = [];
            foreach (var other in UsedTypes(type).Select(t => FolderOf(t, assembly)).OfType<string>())
            {
                if (other != folder)
                {
                    used.Add(other);
                }
            }
        }

        return uses;
    }

    /// <summary>The folder under Harness.LoadTests (its second-level namespace; nested types count with their outer type); null outside the runner.</summary>
    private static string? FolderOf(Type type, Assembly assembly)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        if (type.Assembly != assembly || type.Namespace is not { } ns || !ns.StartsWith("Harness.LoadTests", StringComparison.Ordinal))
        {
            return null;
        }

        var parts = ns.Split('.');
        return parts.Length > 2 ? parts[2] : "(root)";
    }

    private static IEnumerable<Type> UsedTypes(Type type)
    {
        const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
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

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

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
            switch (code.OperandType)
            {
                case OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok:
                    var token = BitConverter.ToInt32(il, at);
                    found.AddRange(Resolve(method.Module, token, typeArguments, methodArguments));
                    at += 4;
                    break;
                case OperandType.InlineNone:
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    at += 1;
                    break;
                case OperandType.InlineVar:
                    at += 2;
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    at += 8;
                    break;
                case OperandType.InlineSwitch:
                    at += 4 + (4 * BitConverter.ToInt32(il, at));
                    break;
                default:
                    at += 4;
                    break;
            }
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
