// particles.vert - one particle: a point sprite (GFX_POINTS) or one corner
// of an instanced quad (GFX_QUADS). The loader puts "#version 330 core" and
// the define before this file.

layout(location = 0) in vec3 a_circle; // center x, y and radius, world units
layout(location = 1) in vec4 a_color;  // normalised RGBA, alpha already faded

uniform mat4 u_proj;          // world units to clip space
uniform float u_px_per_unit;  // drawable pixels per world unit
uniform vec4 u_highlight;     // world rectangle x0, y0, x1, y1
uniform int u_highlight_on;
uniform float u_alpha_floor;  // the faintest a fading particle is drawn
uniform float u_lift;         // 0 the colours as given, 1 each at its brightest

out vec4 v_color;
out float v_radius_px;
#ifdef GFX_QUADS
out vec2 v_offset_px; // this corner's offset from the center, pixels
#endif

void main()
{
    v_radius_px = a_circle.z * u_px_per_unit;
    float half_px = v_radius_px + 1.0; // a pixel more for the smooth edge
    // The look, per vertex so that it costs nothing per pixel: dull colours
    // lifted towards their brightest shade, faded particles kept visible
    // (alpha still follows life, from the floor up).
    float peak = max(max(a_color.r, a_color.g), a_color.b);
    vec3 lifted = mix(a_color.rgb, a_color.rgb / max(peak, 0.05), u_lift);
    v_color = vec4(lifted, max(a_color.a, u_alpha_floor));
    if (u_highlight_on != 0) {
        bool inside = all(greaterThanEqual(a_circle.xy, u_highlight.xy)) &&
                      all(lessThan(a_circle.xy, u_highlight.zw));
        v_color = inside ? vec4(1.0, 0.92, 0.25, 1.0) : vec4(v_color.rgb * 0.5, v_color.a);
    }
#ifdef GFX_POINTS
    gl_Position = u_proj * vec4(a_circle.xy, 0.0, 1.0);
    gl_PointSize = 2.0 * half_px;
#else
    // Triangle strip corners 0..3: (-1,-1) (1,-1) (-1,1) (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    v_offset_px = corner * half_px;
    gl_Position = u_proj * vec4(a_circle.xy + corner * (half_px / u_px_per_unit), 0.0, 1.0);
#endif
}
