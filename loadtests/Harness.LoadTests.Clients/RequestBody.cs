namespace Harness.LoadTests.Clients;

/// <summary>
/// The bytes each call of a <c>--call</c> sends: its template rendered for the call and encoded (JSON to protobuf, JSON
/// to a SOAP envelope, or an envelope's text as it is). A template without placeholders is encoded once and reused.
/// </summary>
public sealed class RequestBody
{
    private readonly CallTemplate _template;
    private readonly Func<string, byte[]> _encode;
    private readonly byte[]? _fixed;

    /// <summary>Encodes the template's samples once (its low and high ends), so data that cannot fit fails here, before any load.</summary>
    /// <exception cref="CallSetupException">The data does not fit the message; the message names the field.</exception>
    public RequestBody(CallTemplate template, Func<string, byte[]> encode)
    {
        _template = template;
        _encode = encode;
        if (template.IsConstant)
        {
            _fixed = encode(template.Text);
        }
        else
        {
            encode(template.Sample(high: false));
            encode(template.Sample(high: true));
        }
    }

    public CallTemplate Template => _template;

    /// <param name="sequence">The call's number in its load, from 1.</param>
    /// <param name="user">The virtual user, from 1; 0 in the open model.</param>
    public byte[] For(long sequence, int user) => _fixed ?? _encode(_template.Render(sequence, user, Random.Shared));
}
