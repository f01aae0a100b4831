using System.Text;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>A container's arguments as the kubelet passes them: $(VAR) expanded from the container's env.</summary>
public static class ContainerArgs
{
    /// <summary>The Job controller's index, as the first agent sees it.</summary>
    public const string FirstIndex = "0";

    public static IReadOnlyList<string> Expanded(V1Container container)
    {
        var env = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var variable in container.Env ?? [])
        {
            if (variable.Value is not null)
            {
                env[variable.Name] = variable.Value;
            }
            else if (variable.ValueFrom?.FieldRef?.FieldPath.Contains("job-completion-index", StringComparison.Ordinal) == true)
            {
                env[variable.Name] = FirstIndex;
            }
        }

        return [.. (container.Args ?? []).Select(a => Expand(a, env))];
    }

    /// <summary>Kubernetes' rule: $(NAME) becomes NAME's value when defined, $$ is a literal $, the rest stays.</summary>
    public static string Expand(string text, IReadOnlyDictionary<string, string> env)
    {
        var result = new StringBuilder();
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '$' && i + 1 < text.Length && text[i + 1] == '$')
            {
                result.Append('$');
                i++;
                continue;
            }

            if (text[i] == '$' && i + 1 < text.Length && text[i + 1] == '(' && text.IndexOf(')', i + 2) is var close and > 0
                && env.TryGetValue(text[(i + 2)..close], out var value))
            {
                result.Append(value);
                i = close;
                continue;
            }

            result.Append(text[i]);
        }

        return result.ToString();
    }

    /// <summary>Takes <paramref name="name"/> out of the arguments (as "--x v" or "--x=v") and returns its value.</summary>
    public static string? Remove(List<string> args, string name)
    {
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] == name && i + 1 < args.Count)
            {
                var value = args[i + 1];
                args.RemoveRange(i, 2);
                return value;
            }

            if (args[i].StartsWith(name + "=", StringComparison.Ordinal))
            {
                var value = args[i][(name.Length + 1)..];
                args.RemoveAt(i);
                return value;
            }
        }

        return null;
    }

    public static string? Value(IReadOnlyList<string> args, string name) => Remove([.. args], name);
}
