using System.Net.Http.Headers;
using System.Xml;
using System.Xml.Linq;

namespace Harness.LoadTests.Calls.Soap;

/// <summary>
/// Posts envelopes to a SOAP endpoint with one <see cref="HttpClient"/> (pooled connections, no cap per server: SOAP on
/// HTTP/1.1 needs a connection per call in flight), <c>text/xml; charset=utf-8</c> and the SOAPAction header (SOAP
/// 1.2: <c>application/soap+xml</c> with an <c>action</c> parameter). A reply other than 2xx is a failure: a fault is
/// counted by its code (<c>soap-fault-Client</c>, <c>soap-fault-Server</c>, or the SOAP 1.2 subcode), anything
/// else by its HTTP status (<c>http-503</c>); transport failures surface as HttpRequestException.
/// </summary>
internal sealed class SoapCallClient : ICallClient
{
    private readonly HttpClient _http;
    private readonly Uri _endpoint;
    private readonly string _action;
    private readonly SoapVersion _version;
    private readonly IReadOnlyList<KeyValuePair<string, string>> _headers;

    /// <param name="headers">Extra HTTP headers (<c>--metadata</c>).</param>
    public SoapCallClient(Uri endpoint, string soapAction, SoapVersion version, IReadOnlyList<KeyValuePair<string, string>> headers)
    {
        _http = new HttpClient(new SocketsHttpHandler
        {
            MaxConnectionsPerServer = int.MaxValue,
            ConnectTimeout = TimeSpan.FromSeconds(10),
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
        })
        {
            // BasicHttpBinding's default send timeout, as the typed SOAP client has.
            Timeout = TimeSpan.FromMinutes(1),
        };
        _endpoint = endpoint;
        _action = soapAction;
        _version = version;
        _headers = headers;
    }

    public async Task<CallReply> SendAsync(byte[] body, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, _endpoint) { Content = new ByteArrayContent(body) };
        if (_version == SoapVersion.Soap11)
        {
            request.Content.Headers.ContentType = new MediaTypeHeaderValue("text/xml") { CharSet = "utf-8" };
            request.Headers.TryAddWithoutValidation("SOAPAction", $"\"{_action}\"");
        }
        else
        {
            request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/soap+xml") { CharSet = "utf-8", Parameters = { new("action", $"\"{_action}\"") } };
        }

        foreach (var (name, value) in _headers)
        {
            request.Headers.TryAddWithoutValidation(name, value);
        }

        using var response = await _http.SendAsync(request, cancellationToken);
        var reply = await response.Content.ReadAsByteArrayAsync(cancellationToken);

        // Some servers fault with 200 (the npm soap package does), so a fault is looked for whatever the status;
        // the byte search keeps a fault-free reply from being parsed.
        if (reply.AsSpan().IndexOf("Fault"u8) >= 0 && FaultIn(reply) is { } fault)
        {
            throw fault;
        }

        return response.IsSuccessStatusCode
            ? new CallReply(reply)
            : throw new CallFailedException($"http-{(int)response.StatusCode}", $"HTTP {(int)response.StatusCode} {response.StatusCode}");
    }

    /// <summary>The failure of a reply whose body is a fault, counted by its code; null when it holds none (or is not XML).</summary>
    public static CallFailedException? FaultIn(byte[] reply)
    {
        XElement? fault;
        try
        {
            using var stream = new MemoryStream(reply);
            var body = XDocument.Load(stream).Root?.Elements().FirstOrDefault(e => e.Name.LocalName == "Body");
            fault = body?.Elements().FirstOrDefault(e => e.Name == SoapEnvelopeWriter.Soap11 + "Fault" || e.Name == SoapEnvelopeWriter.Soap12 + "Fault");
        }
        catch (XmlException)
        {
            return null; // not XML (a proxy's error page): counted by its status
        }

        if (fault is null)
        {
            return null;
        }

        // SOAP 1.1: <faultcode>s:Client</faultcode>. SOAP 1.2: <Code><Value>s:Sender</Value><Subcode><Value>a:Why</Value>…
        var code = ((string?)fault.Element("faultcode") ?? (string?)fault.Descendants(SoapEnvelopeWriter.Soap12 + "Value").LastOrDefault() ?? "unknown").Trim();
        var reason = (string?)fault.Element("faultstring") ?? (string?)fault.Descendants(SoapEnvelopeWriter.Soap12 + "Text").FirstOrDefault() ?? "";
        return new CallFailedException($"soap-fault-{code[(code.IndexOf(':') + 1)..]}", $"{code}: {reason.Trim()}");
    }

    public void Dispose() => _http.Dispose();
}
