using System.Text;

namespace Harness.KubeletStandIn.Pods;

/// <summary>
/// Kubernetes' <c>$(VAR)</c> expansion of env values, command and args, rule for rule as the kubelet's
/// (third_party/forked/golang/expansion): <c>$(NAME)</c> becomes the variable's value when NAME is defined and stays
/// as written when it is not; <c>$$</c> is one literal <c>$</c>; a <c>$</c> before anything else, or an unclosed
/// <c>$(</c>, stays as written. Nothing else (no <c>${X}</c>, no <c>$X</c>, no nesting) is expanded.
/// </summary>
internal static class Expansion
{
    public static string Expand(string input, Func<string, string?> lookup)
    {
        var buffer = new StringBuilder(input.Length);
        var checkpoint = 0;
        for (var cursor = 0; cursor < input.Length; cursor++)
        {
            if (input[cursor] != '$' || cursor + 1 >= input.Length)
            {
                continue;
            }

            buffer.Append(input, checkpoint, cursor - checkpoint);
            var (read, isVariable, advance) = ReadVariableName(input.AsSpan(cursor + 1));
            buffer.Append(isVariable ? lookup(read) ?? $"$({read})" : read);
            cursor += advance;
            checkpoint = cursor + 1;
        }

        return buffer.Append(input, checkpoint, input.Length - checkpoint).ToString();
    }

    public static string Expand(string input, IReadOnlyDictionary<string, string> variables) =>
        Expand(input, name => variables.TryGetValue(name, out var value) ? value : null);

    private static (string Read, bool IsVariable, int Advance) ReadVariableName(ReadOnlySpan<char> input)
    {
        switch (input[0])
        {
            case '$':
                return ("$", false, 1);
            case '(':
                var close = input.IndexOf(')');
                // An unclosed reference keeps the operator and the opener and goes on after the opener.
                return close < 0 ? ("$(", false, 1) : (input[1..close].ToString(), true, close + 1);
            default:
                return ("$" + input[0], false, 1);
        }
    }
}
