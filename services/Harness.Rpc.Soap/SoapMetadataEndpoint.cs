using System.Globalization;
using System.Net;
using System.Text;
using System.Xml;
using System.Xml.Linq;
using Microsoft.AspNetCore.Http;

namespace Harness.Rpc.Soap;

/// <summary>
/// Answers GET requests on a SOAP endpoint as CoreWCF's metadata and debug behaviors do: <c>?wsdl</c>,
/// <c>?singleWsdl</c>, <c>?xsd=xsdN</c> and <c>?disco</c> when <see cref="SoapEndpointOptions.HttpGetEnabled"/>, and
/// WCF's HTML help page for any other GET when <see cref="SoapEndpointOptions.HttpHelpPageEnabled"/>. The query names
/// are matched without regard to case, as WCF matches them.
/// </summary>
/// <param name="serviceName">The help page's title.</param>
/// <param name="metadata">The documents to serve, or null when metadata publishing is off.</param>
/// <param name="helpPageEnabled">Whether other GET requests get the help page.</param>
internal sealed class SoapMetadataEndpoint(string serviceName, SoapMetadata? metadata, bool helpPageEnabled)
{
    private const string XmlContentType = "text/xml; charset=UTF-8";
    private const string HtmlContentType = "text/html; charset=UTF-8";
    private static readonly Encoding Utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Serves the request if it is one for metadata or the help page; false leaves it to the SOAP endpoint.</summary>
    public async Task<bool> TryServeAsync(HttpContext context)
    {
        // The address as the client used it (scheme, Host header, path), as CoreWCF's UseRequestHeadersForMetadataAddressBehavior does.
        HttpRequest request = context.Request;
        string address = $"{request.Scheme}://{request.Host.ToUriComponent()}{request.PathBase.ToUriComponent()}{request.Path.ToUriComponent()}";
        string query = request.QueryString.HasValue ? request.QueryString.Value![1..] : "";

        if (metadata is not null && TryCreateDocument(metadata, query, address, out XDocument? document))
        {
            if (document is null)
            {
                context.Response.StatusCode = StatusCodes.Status404NotFound;
                context.Response.ContentLength = 0;
                return true;
            }

            await WriteAsync(context, XmlContentType, WriteXml(document)).ConfigureAwait(false);
            return true;
        }

        if (helpPageEnabled)
        {
            await WriteAsync(context, HtmlContentType, Utf8.GetBytes(HelpPage(address))).ConfigureAwait(false);
            return true;
        }

        return false;
    }

    /// <summary>Whether <paramref name="query"/> asks for a metadata document; the document is null when it names one that does not exist.</summary>
    private static bool TryCreateDocument(SoapMetadata metadata, string query, string address, out XDocument? document)
    {
        document = null;
        if (query.Equals("wsdl", StringComparison.OrdinalIgnoreCase))
        {
            document = metadata.CreateWsdl(address, single: false);
        }
        else if (query.Equals("singleWsdl", StringComparison.OrdinalIgnoreCase))
        {
            document = metadata.CreateWsdl(address, single: true);
        }
        else if (query.Equals("disco", StringComparison.OrdinalIgnoreCase))
        {
            document = metadata.CreateDisco(address);
        }
        else if (query.StartsWith("xsd=xsd", StringComparison.OrdinalIgnoreCase))
        {
            if (int.TryParse(query.AsSpan(7), NumberStyles.None, CultureInfo.InvariantCulture, out int index))
            {
                document = metadata.CreateSchema(index, address);
            }
        }
        else if (!query.StartsWith("wsdl=", StringComparison.OrdinalIgnoreCase) && !query.StartsWith("xsd=", StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        return true;
    }

    private static byte[] WriteXml(XDocument document)
    {
        using var stream = new MemoryStream();
        using (var writer = XmlWriter.Create(stream, new XmlWriterSettings { Encoding = Utf8, Indent = true }))
        {
            document.Save(writer);
        }

        return stream.ToArray();
    }

    private static async Task WriteAsync(HttpContext context, string contentType, byte[] body)
    {
        context.Response.StatusCode = StatusCodes.Status200OK;
        context.Response.ContentType = contentType;
        context.Response.ContentLength = body.Length;
        await context.Response.Body.WriteAsync(body, context.RequestAborted).ConfigureAwait(false);
    }

    /// <summary>
    /// WCF's help page, with the sentences tools look for (CoreWCF keeps them for health checks that match on them):
    /// "You have created a service." with the WSDL addresses, or the notice that metadata publishing is disabled.
    /// </summary>
    private string HelpPage(string address)
    {
        string service = WebUtility.HtmlEncode(serviceName);
        string wsdl = WebUtility.HtmlEncode(address + "?wsdl");
        string singleWsdl = WebUtility.HtmlEncode(address + "?singleWsdl");
        string body = metadata is not null
            ? $"""
                <p>You have created a service.</p>
                <p>To test this service, you will need to create a client and use it to call the service. You can do this using the svcutil.exe tool from the command line with the following syntax:</p>
                <pre>svcutil.exe <a href="{wsdl}">{wsdl}</a></pre>
                <p>You can also access the service description as a single file:</p>
                <pre><a href="{singleWsdl}">{singleWsdl}</a></pre>
                <p>On .NET, <code>dotnet-svcutil {wsdl}</code> generates a client, or build a <code>ChannelFactory</code> over <code>BasicHttpBinding</code> from the same contract.</p>
                """
            : """
                <p>Metadata publishing for this service is currently disabled.</p>
                <p>To publish the service's WSDL, set <code>SoapEndpointOptions.HttpGetEnabled</code> to true when mapping the endpoint (CoreWCF: <code>ServiceMetadataBehavior.HttpGetEnabled</code>).</p>
                """;
        return $$"""
            <!DOCTYPE html>
            <html>
            <head><meta charset="utf-8"><title>{{service}} Service</title>
            <style>body { font-family: Verdana, sans-serif; margin: 2em; } pre { background: #e5e5cc; padding: 5px; }</style></head>
            <body>
            <h1>{{service}} Service</h1>
            {{body}}
            </body>
            </html>
            """;
    }
}
