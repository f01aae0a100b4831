using System.Xml;
using System.Xml.Linq;

namespace Harness.LoadTests.Clients.Soap;

/// <summary>SOAP 1.1 (BasicHttpBinding's) or 1.2: the envelope's namespace and how the action is sent.</summary>
internal enum SoapVersion
{
    Soap11,
    Soap12,
}

/// <summary>An operation of a WSDL's SOAP binding.</summary>
/// <param name="InputElement">The input message's one part's element (document/literal wrapped: the wrapper).</param>
/// <param name="Unsupported">Why the envelope cannot be built from the WSDL (rpc style, SOAP encoding, several parts); null when it can.</param>
internal sealed record WsdlOperation(string Name, string SoapAction, XName? InputElement, string? Unsupported);

/// <summary>
/// A WSDL 1.1 with its schemas, read for the operations of its SOAP binding (SOAP 1.1 preferred, as BasicHttpBinding
/// serves, else 1.2): each one's SOAPAction, from the binding, and its input element, through the port type and the
/// message. Loaded from <c>--wsdl</c> (a URL or a file) or from the target's <c>?singleWsdl</c>, then <c>?wsdl</c>;
/// imported WSDL and schema documents are followed, at most <see cref="MaxDocuments"/>. What is read over HTTP is
/// bounded as every setup read (<see cref="SetupReads"/>): <see cref="SetupReads.MaxBytes"/> in all, within the timeout.
/// </summary>
internal sealed class WsdlDocument
{
    public static readonly XNamespace Wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private static readonly XNamespace Soap11Binding = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static readonly XNamespace Soap12Binding = "http://schemas.xmlsoap.org/wsdl/soap12/";
    private static readonly XNamespace Xsd = XsdSchemas.Xsd;
    private const int MaxDocuments = 50;

    private WsdlDocument(string source, SoapVersion version, IReadOnlyList<WsdlOperation> operations, XsdSchemas schemas)
    {
        Source = source;
        Version = version;
        Operations = operations;
        Schemas = schemas;
    }

    /// <summary>Where it was read, for messages and the report.</summary>
    public string Source { get; }

    public SoapVersion Version { get; }

    public IReadOnlyList<WsdlOperation> Operations { get; }

    public XsdSchemas Schemas { get; }

    /// <param name="timeout">The whole read's bound, every candidate and import included (the run's <c>--timeout</c>).</param>
    /// <exception cref="CallSetupException">
    /// No WSDL could be read there (the message says what to give instead), or it has no SOAP binding; or a server passed
    /// a bound of <see cref="SetupReads"/> (the message names it and the address being read).
    /// </exception>
    public static async Task<WsdlDocument> LoadAsync(string? wsdl, Uri endpoint, HttpClient http, TimeSpan timeout, CancellationToken cancellationToken)
    {
        Uri[] candidates = wsdl is not null
            ? [Uri.TryCreate(wsdl, UriKind.Absolute, out var given) && given.Scheme is "http" or "https" ? given : new Uri(Path.GetFullPath(wsdl))]
            : [new UriBuilder(endpoint) { Query = "singleWsdl" }.Uri, new UriBuilder(endpoint) { Query = "wsdl" }.Uri];
        var failures = new List<string>();
        var reads = new Reads(http);
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(timeout);
        try
        {
            foreach (var location in candidates)
            {
                try
                {
                    var first = await reads.FetchAsync(location, bounded.Token);
                    if (first.Root?.Name != Wsdl + "definitions")
                    {
                        failures.Add($"{location}: not a WSDL 1.1 document (its root is {first.Root?.Name.LocalName ?? "missing"})");
                        continue;
                    }

                    return Read(await WithImportsAsync(location, first, reads, bounded.Token), location.ToString());
                }
                catch (Exception ex) when (IsUnreadable(ex))
                {
                    failures.Add($"{location}: {ex.Message.ReplaceLineEndings(" ")}");
                }
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new CallSetupException(
                $"reading the WSDL: {reads.Current} sent no whole answer within {SetupReads.TimeoutText(timeout)}, the bound of reading a WSDL and its imports; "
                + "give --wsdl FILE (a saved copy), a longer --timeout, or --envelope FILE with --soap-action.");
        }
        catch (HttpRequestException ex) when (ex.HttpRequestError == HttpRequestError.ConfigurationLimitExceeded)
        {
            throw new CallSetupException(
                $"reading the WSDL: {reads.Current} took it past {SetupReads.MaxBytesText}, the most a WSDL and its imports may be read from a server; "
                + "give --wsdl FILE (a saved copy), or --envelope FILE with --soap-action.",
                ex);
        }

        throw new CallSetupException(
            $"no WSDL could be read ({string.Join("; ", failures)}); give --wsdl URL|FILE, or --envelope FILE with --soap-action to send an envelope of your own.");
    }

    /// <summary>A document that is not there or not XML: the next candidate is tried, an import is left out. A bound passed is not this.</summary>
    private static bool IsUnreadable(Exception ex) =>
        ex is HttpRequestException { HttpRequestError: not HttpRequestError.ConfigurationLimitExceeded } or IOException or UnauthorizedAccessException or XmlException;

    /// <summary>Reads the operations of WSDL <paramref name="documents"/> (definitions, and any schema documents they import).</summary>
    /// <exception cref="CallSetupException">No definitions, or no SOAP binding.</exception>
    public static WsdlDocument Read(IReadOnlyList<XDocument> documents, string source)
    {
        var definitions = documents.Select(d => d.Root!).Where(r => r.Name == Wsdl + "definitions").ToList();
        var schemas = documents.Select(d => d.Root!).Where(r => r.Name == Xsd + "schema")
            .Concat(definitions.SelectMany(d => d.Elements(Wsdl + "types").Elements(Xsd + "schema")));
        var bindings = definitions.SelectMany(d => d.Elements(Wsdl + "binding")).ToList();
        var version = bindings.Any(b => b.Element(Soap11Binding + "binding") is not null) ? SoapVersion.Soap11 : SoapVersion.Soap12;
        var soap = version == SoapVersion.Soap11 ? Soap11Binding : Soap12Binding;
        var chosen = bindings.Where(b => b.Element(soap + "binding") is not null).ToList();
        if (chosen.Count == 0)
        {
            throw new CallSetupException(
                $"the WSDL at {source} has no SOAP binding (soap:binding or soap12:binding); give --envelope FILE with --soap-action to send an envelope of your own.");
        }

        var portTypes = Named(definitions, "portType");
        var messages = Named(definitions, "message");
        var operations = new List<WsdlOperation>();
        foreach (var binding in chosen)
        {
            var portType = XsdSchemas.QName(binding, "type") is { } typeName ? portTypes.GetValueOrDefault(typeName) : null;
            var defaultStyle = (string?)binding.Element(soap + "binding")!.Attribute("style") ?? "document";
            foreach (var operation in binding.Elements(Wsdl + "operation"))
            {
                var name = (string?)operation.Attribute("name") ?? "";
                if (operations.Any(o => o.Name == name))
                {
                    continue;
                }

                var soapOperation = operation.Element(soap + "operation");
                var action = (string?)soapOperation?.Attribute("soapAction") ?? "";
                var style = (string?)soapOperation?.Attribute("style") ?? defaultStyle;
                var use = (string?)operation.Element(Wsdl + "input")?.Element(soap + "body")?.Attribute("use") ?? "literal";
                var input = portType?.Elements(Wsdl + "operation").FirstOrDefault(o => (string?)o.Attribute("name") == name)?.Element(Wsdl + "input");
                var message = input is not null && XsdSchemas.QName(input, "message") is { } messageName ? messages.GetValueOrDefault(messageName) : null;
                var parts = message?.Elements(Wsdl + "part").ToList() ?? [];
                var element = parts.Count == 1 ? XsdSchemas.QName(parts[0], "element") : null;
                var unsupported = style == "rpc" ? "is rpc-style"
                    : use != "literal" ? $"uses SOAP encoding (use=\"{use}\")"
                    : element is null ? "has no input message of one element (document/literal wrapped)"
                    : null;
                operations.Add(new WsdlOperation(name, action, element, unsupported));
            }
        }

        return new WsdlDocument(source, version, operations, new XsdSchemas(schemas));
    }

    /// <exception cref="CallSetupException">No such operation (the message lists the WSDL's), or one whose envelope cannot be built from the WSDL.</exception>
    public (WsdlOperation Operation, XsdElement Input) Find(string name)
    {
        var operation = Operations.FirstOrDefault(o => o.Name == name)
            ?? throw new CallSetupException(
                $"--call '{name}': the WSDL at {Source} has no operation {name}; its operations are {(Operations.Count == 0 ? "none" : string.Join(", ", Operations.Select(o => o.Name)))}.");
        if (operation.Unsupported is { } why)
        {
            throw new CallSetupException(
                $"--call '{name}': the operation {why}, so its envelope cannot be built from the WSDL; give --envelope FILE with --soap-action.");
        }

        var input = Schemas.Global(operation.InputElement!)
            ?? throw new CallSetupException($"--call '{name}': the WSDL's schemas do not declare its input element {operation.InputElement}.");
        return (operation, input);
    }

    private static Dictionary<XName, XElement> Named(IEnumerable<XElement> definitions, string kind)
    {
        var named = new Dictionary<XName, XElement>();
        foreach (var definition in definitions)
        {
            var tns = (string?)definition.Attribute("targetNamespace") ?? "";
            foreach (var item in definition.Elements(Wsdl + kind))
            {
                named.TryAdd(XName.Get((string?)item.Attribute("name") ?? "", tns), item);
            }
        }

        return named;
    }

    /// <summary>The document and every WSDL or schema document it imports, transitively, at most <see cref="MaxDocuments"/>.</summary>
    private static async Task<IReadOnlyList<XDocument>> WithImportsAsync(Uri location, XDocument first, Reads reads, CancellationToken cancellationToken)
    {
        var documents = new List<XDocument> { first };
        var seen = new HashSet<Uri> { location };
        var pending = new Queue<(Uri Base, XDocument Document)>([(location, first)]);
        while (pending.TryDequeue(out var current) && documents.Count < MaxDocuments)
        {
            var references = current.Document.Descendants()
                .Where(e => e.Name == Wsdl + "import" || e.Name == Xsd + "import" || e.Name == Xsd + "include")
                .Select(e => (string?)e.Attribute("location") ?? (string?)e.Attribute("schemaLocation"))
                .OfType<string>();
            foreach (var reference in references)
            {
                var target = new Uri(current.Base, reference);
                if (documents.Count >= MaxDocuments || !seen.Add(target))
                {
                    continue;
                }

                try
                {
                    var document = await reads.FetchAsync(target, cancellationToken);
                    documents.Add(document);
                    pending.Enqueue((target, document));
                }
                catch (Exception ex) when (IsUnreadable(ex))
                {
                    // An import that cannot be read: the element it declared is then named as undeclared, if it is used.
                }
            }
        }

        return documents;
    }

    /// <summary>The documents read so far: the bytes that came over HTTP, against <see cref="SetupReads.MaxBytes"/>, and the one being read.</summary>
    private sealed class Reads(HttpClient http)
    {
        private long _bytes;

        /// <summary>The address being read, for a refusal's message.</summary>
        public Uri? Current { get; private set; }

        /// <exception cref="HttpRequestException">Of <see cref="HttpRequestError.ConfigurationLimitExceeded"/> when the bytes read pass the bound.</exception>
        public async Task<XDocument> FetchAsync(Uri location, CancellationToken cancellationToken)
        {
            Current = location;
            if (location.IsFile)
            {
                // The user's own file: not a server's to inflate.
                return XDocument.Parse(await File.ReadAllTextAsync(location.LocalPath, cancellationToken));
            }

            // The client's MaxResponseContentBufferSize (CallResolver sets it to the bound, as ServerScraper's) stops one
            // endless or oversized body as it comes; what is left of the bound over all documents is checked here.
            using var response = await http.GetAsync(location, cancellationToken);
            response.EnsureSuccessStatusCode();
            var bytes = await response.Content.ReadAsByteArrayAsync(cancellationToken);
            _bytes += bytes.Length;
            if (_bytes > SetupReads.MaxBytes)
            {
                throw new HttpRequestException(HttpRequestError.ConfigurationLimitExceeded, $"more than {SetupReads.MaxBytes} bytes read in all");
            }

            using var stream = new MemoryStream(bytes, writable: false);
            return XDocument.Load(stream);
        }
    }
}
