using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>
/// Lets the catch-all UNIMPLEMENTED endpoints match only gRPC calls (POST with a gRPC content-type), so every
/// other request to an unmapped path still gets the application's ordinary 404 or 405.
/// </summary>
internal sealed class GrpcUnimplementedConstraint : IRouteConstraint
{
    public static readonly GrpcUnimplementedConstraint Instance = new();

    private GrpcUnimplementedConstraint()
    {
    }

    public bool Match(HttpContext? httpContext, IRouter? route, string routeKey, RouteValueDictionary values, RouteDirection routeDirection) =>
        httpContext is not null
        && HttpMethods.IsPost(httpContext.Request.Method)
        && GrpcProtocol.IsGrpcContentType(httpContext.Request.ContentType);
}
