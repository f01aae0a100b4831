using Microsoft.AspNetCore.Http;

namespace Harness.Rpc.Soap;

/// <summary>
/// How CoreWCF 1.9.1 matches a request's path to an HTTP endpoint, in three steps:
/// <list type="number">
/// <item>Its <c>ServiceModelHttpMiddleware</c> takes every request whose path starts with the endpoint's, segment by
/// segment and ignoring letter case (<c>PathString.StartsWithSegments</c>), so sub-paths reach the endpoint too.</item>
/// <item>Its <c>MetadataMiddleware</c> answers GET (WSDL, help page) only at the endpoint's path itself, ignoring case
/// (<c>PathString</c> equality in <c>ServiceMetadataExtension.HttpGetImpl</c>): with a trailing slash a GET is an
/// ordinary SOAP request, without a body.</item>
/// <item>The endpoint dispatcher's address filter (<c>EndpointAddressMessageFilter</c>, via <c>EndpointAddress.UriEquals</c>)
/// compares the path ignoring case and one trailing slash; a message to any other path below the endpoint gets a
/// DestinationUnreachable fault.</item>
/// </list>
/// </summary>
internal sealed class SoapEndpointAddress
{
    private readonly string _path;

    public SoapEndpointAddress(string path)
    {
        string rooted = path.StartsWith('/') ? path : "/" + path;
        _path = rooted.Length > 1 ? rooted.TrimEnd('/') : rooted;
    }

    /// <summary>The route that takes the endpoint's path and every path below it (a catch-all may be empty).</summary>
    public string RoutePattern => (_path == "/" ? "" : _path.Replace("{", "{{", StringComparison.Ordinal).Replace("}", "}}", StringComparison.Ordinal))
        + "/{**soapSubPath}";

    /// <summary>Whether a GET here is one for the metadata or the help page: the endpoint's path exactly, any letter case.</summary>
    public bool IsMetadataPath(PathString path) => string.Equals(path.Value ?? "/", _path, StringComparison.OrdinalIgnoreCase);

    /// <summary>Whether the address filter passes a message sent to <paramref name="path"/>: the same path, any letter case, one trailing slash aside.</summary>
    public bool Matches(PathString path) =>
        string.Equals(WithoutTrailingSlash(path.Value ?? "/"), WithoutTrailingSlash(_path), StringComparison.OrdinalIgnoreCase);

    /// <summary>The message's To as CoreWCF sets it without WS-Addressing: the request's Via (scheme, host, path base, path and query).</summary>
    public static string ToHeaderOf(HttpRequest request)
    {
        string via = string.Concat(
            request.IsHttps ? "https://" : "http://",
            request.Host.HasValue ? request.Host.Value : "localhost",
            request.PathBase.ToUriComponent(),
            request.Path.ToUriComponent(),
            request.QueryString.ToUriComponent());
        return Uri.TryCreate(via, UriKind.Absolute, out Uri? uri) ? uri.ToString() : via;
    }

    private static string WithoutTrailingSlash(string path) => path.EndsWith('/') ? path[..^1] : path;
}
